/** Outages (issue 14): PostgreSQL and Redis that the test starts, restarts and owns; no shared server is touched. */
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.chaos-spec.ts'],
  globalSetup: undefined,
  globalTeardown: undefined,
  maxWorkers: 1,
  testTimeout: 300000,
};
