/**
 * Reads the shell's and every live remote's built mf-manifest.json from the deploy root and
 * fails, naming the remote and the package, where a remote needs a shared singleton version the
 * shell does not provide.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRegistry } from '../lib/deploy.ts';
import { DEPLOY_DIR } from '../lib/paths.ts';
import { checkSharedVersions, type ManifestShared } from '../lib/shared-versions.ts';
import { log, main } from '../lib/run.ts';

function manifestShared(path: string): ManifestShared[] {
  if (!existsSync(path)) throw new Error(`${path} is missing: build first`);
  return (JSON.parse(readFileSync(path, 'utf8')) as { shared: ManifestShared[] }).shared;
}

await main(async () => {
  const shell = manifestShared(join(DEPLOY_DIR, 'mf-manifest.json'));
  const registry = readRegistry(DEPLOY_DIR);
  const remotes = Object.entries(registry.remotes).map(([remote, e]) => ({
    remote: `${remote}@${e.version}`,
    shared: manifestShared(join(DEPLOY_DIR, e.entry)),
  }));
  const problems = checkSharedVersions(shell, remotes);
  for (const p of problems) log(`\x1b[31mshared version mismatch:\x1b[0m ${p.message}`);
  if (problems.length) throw new Error(`${problems.length} shared version problem(s)`);
  log(`shared versions: ${remotes.length} remotes satisfied by the shell's ${shell.length} shared packages`);
});
