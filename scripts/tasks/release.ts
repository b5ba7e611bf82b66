/**
 * npm run release -- <remote> [--version V] [--json]
 * Builds one remote, publishes it under remotes/<name>/<version>/ in the deploy root and
 * atomically makes it the live version. The shell and the other remotes are not touched.
 */
import { join } from 'node:path';
import { buildRemote, remoteSourceHash } from '../lib/build.ts';
import { publishRemoteFiles, publishedSourceHash, switchTo } from '../lib/deploy.ts';
import { DEPLOY_DIR, remotePackage } from '../lib/paths.ts';
import { log, main, parseArgs } from '../lib/run.ts';

await main(async () => {
  const { positional, flags } = parseArgs(process.argv.slice(2));
  const name = positional[0];
  if (!name) throw new Error('usage: npm run release -- <remote> [--version V] [--json]');
  const remote = remotePackage(name);
  const version = typeof flags.version === 'string' ? flags.version : remote.version;
  const hash = remoteSourceHash(remote);
  const published = publishedSourceHash(DEPLOY_DIR, remote.name, version);
  if (published !== null && published !== hash) {
    throw new Error(
      `${remote.name} ${version} is already published from different sources; bump "version" in remotes/${remote.name}/package.json`,
    );
  }
  if (published === null) {
    const out = join(remote.dir, 'dist-release');
    log(`building ${remote.name} ${version}`);
    await buildRemote(remote, version, out);
    publishRemoteFiles(DEPLOY_DIR, remote.name, version, out, hash);
  }
  const entry = switchTo(DEPLOY_DIR, remote.name, version, remote.mounts);
  if (flags.json) console.log(JSON.stringify({ remote: remote.name, version: entry.version, previous: entry.previous?.version ?? null }));
  else console.log(`released ${remote.name} ${entry.version}${entry.previous ? ` (previous: ${entry.previous.version})` : ''}`);
});
