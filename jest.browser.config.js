/** Real-browser tests: Debian's Chromium at /usr/bin/chromium driven by playwright-core. */
const base = require('./jest.config');

module.exports = { ...base, roots: ['<rootDir>/test'], testMatch: ['**/*.browser-spec.ts'], maxWorkers: 1, testTimeout: 120000 };
