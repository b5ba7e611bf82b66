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
 * A remote's singleton needs must be met by what the page will load, or the page would run two
 * copies (or a wrong version) of a singleton. For what the shell shares, that is the shell's
 * version. A singleton only remotes use is provided by whichever remote loads first, so every
 * remote that shares it must satisfy every other's range. Returns every unmet need, naming
 * the remote and the package.
 */
export function checkSharedVersions(shell: ManifestShared[], remotes: { remote: string; shared: ManifestShared[] }[]): SharedProblem[] {
  const provided = new Map(shell.map((s) => [s.name, s.version]));
  const problems: SharedProblem[] = [];
  for (const { remote, shared } of remotes) {
    for (const s of shared) {
      if (!s.singleton || !s.requiredVersion) continue;
      const required = s.requiredVersion;
      const have = provided.get(s.name);
      if (have !== undefined) {
        if (!validRange(required) || !satisfies(have, required)) {
          problems.push({ remote, pkg: s.name, required, provided: have, message: `${remote} needs ${s.name}@${required}, but the shell provides ${s.name}@${have}` });
        }
        continue;
      }
      for (const other of remotes) {
        const theirs = other.shared.find((o) => o.name === s.name && o.singleton);
        if (!theirs || other.remote === remote) continue;
        if (!validRange(required) || !satisfies(theirs.version, required)) {
          problems.push({
            remote,
            pkg: s.name,
            required,
            provided: theirs.version,
            message: `${remote} needs ${s.name}@${required}, but ${other.remote} would provide ${s.name}@${theirs.version} if it loads first (the shell does not share ${s.name})`,
          });
        }
      }
    }
  }
  return problems;
}
