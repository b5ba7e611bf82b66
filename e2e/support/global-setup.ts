import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEPLOY_DIR, FIXTURES_DIR, ROOT } from './paths.ts';

/** Builds the deliberately faulty remote once per run, in each of its variants. */
export default function globalSetup() {
  if (!existsSync(join(DEPLOY_DIR, 'index.html'))) {
    throw new Error(`${DEPLOY_DIR} has no build: run the e2e tests through npm test (or npm run build first)`);
  }
  for (const fault of ['throw', 'contract']) {
    execFileSync('pnpm', ['exec', 'rsbuild', 'build'], {
      cwd: join(ROOT, 'e2e', 'fixtures', 'faulty-remote'),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        ATELIER_FIXTURE_FAULT: fault,
        ATELIER_REMOTE_VERSION: `0.0.1-${fault}`,
        ATELIER_OUT_DIR: join(FIXTURES_DIR, `chat-${fault}`),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}
