import { buildAll } from '../lib/build.ts';
import { DEPLOY_DIR } from '../lib/paths.ts';
import { main } from '../lib/run.ts';

await main(() => buildAll(DEPLOY_DIR));
