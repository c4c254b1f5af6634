/** `npm run screenshots`: docs/screenshots/*.png of every page at 1280 and 360 px (real Chromium, demo world). */
const base = require('./jest.config');

module.exports = { ...base, roots: ['<rootDir>/test'], testMatch: ['**/*.screenshots.ts'], maxWorkers: 1, testTimeout: 300000 };
