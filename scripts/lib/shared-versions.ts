import { satisfies, validRange } from 'semver';

export interface ManifestShared {
  name: string;
  version: string;
  singleton?: boolean;
  requiredVersion?: string | false;
}

export interface SharedProblem {
  remote: string;
  pkg: string;
  required: string;
  provided: string | null;
  message: string;
}

/**
 * A remote's singleton needs must be met by what the shell provides, or the page would run two
 * copies (or a wrong version) of a singleton. Returns every unmet need, naming remote and package.
 */
export function checkSharedVersions(shell: ManifestShared[], remotes: { remote: string; shared: ManifestShared[] }[]): SharedProblem[] {
  const provided = new Map(shell.map((s) => [s.name, s.version]));
  const problems: SharedProblem[] = [];
  for (const { remote, shared } of remotes) {
    for (const s of shared) {
      if (!s.singleton || !s.requiredVersion) continue;
      const required = s.requiredVersion;
      const have = provided.get(s.name) ?? null;
      if (have === null) {
        problems.push({ remote, pkg: s.name, required, provided: null, message: `${remote} needs ${s.name}@${required} as a singleton, but the shell does not provide ${s.name}` });
      } else if (!validRange(required) || !satisfies(have, required)) {
        problems.push({ remote, pkg: s.name, required, provided: have, message: `${remote} needs ${s.name}@${required}, but the shell provides ${s.name}@${have}` });
      }
    }
  }
  return problems;
}
