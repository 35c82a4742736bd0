/** @type {import('jest').Config} */
module.exports = {
  // Node's environment, naming on stderr the spec file that left a child process, a server or a timer running.
  testEnvironment: '<rootDir>/spec/support/leak-environment.js',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/spec/bench/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    // jose ships only ES modules: Node loads them with require(), Jest's own module system needs them as CommonJS.
    '/node_modules/jose/.+\\.js$': '<rootDir>/spec/support/esm-package-transform.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  testTimeout: 20000,
  // Fails the run when a spec leaves an rxrest-* folder, or a browser an org.chromium.Chromium.* one, in the OS temp directory.
  globalSetup: '<rootDir>/spec/support/global-setup.ts',
  globalTeardown: '<rootDir>/spec/support/global-teardown.ts',
};
