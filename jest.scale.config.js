/** Several instances on one shared PostgreSQL and Redis: needs DATABASE_URL and REDIS_URL (CI sets both). */
const base = require('./jest.config');

module.exports = { ...base, roots: ['<rootDir>/test'], testMatch: ['**/*.scale-spec.ts'], maxWorkers: 1, testTimeout: 180000 };
