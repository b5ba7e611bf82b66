import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['shared/*/src/**/*.test.{ts,tsx}'], environment: 'happy-dom' },
      },
      {
        extends: true,
        test: { name: 'shell', include: ['shell/src/**/*.test.{ts,tsx}'], environment: 'happy-dom' },
      },
      { extends: true, test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'server', include: ['server/test/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
