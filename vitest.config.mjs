import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    include: ['tests/ts/**/*.test.ts'],
    testTimeout: 60000,
  },
});
