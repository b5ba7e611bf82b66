import { describe, expect, it } from 'vitest';
import { checkSharedVersions } from './shared-versions.ts';

const shell = [
  { name: 'react', version: '19.3.1', singleton: true, requiredVersion: '^19.3.1' },
  { name: 'zustand', version: '5.1.0', singleton: true, requiredVersion: '^5.1.0' },
];

describe('checkSharedVersions', () => {
  it('passes when the shell satisfies every singleton a remote needs', () => {
    expect(checkSharedVersions(shell, [{ remote: 'image', shared: [{ name: 'react', version: '19.3.0', singleton: true, requiredVersion: '^19.0.0' }] }])).toEqual([]);
  });

  it('names the remote and the package when the shell is too old', () => {
    const problems = checkSharedVersions(shell, [{ remote: 'video@2.0.0', shared: [{ name: 'react', version: '20.0.0', singleton: true, requiredVersion: '^20.0.0' }] }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ remote: 'video@2.0.0', pkg: 'react', required: '^20.0.0', provided: '19.3.1' });
    expect(problems[0]!.message).toBe('video@2.0.0 needs react@^20.0.0, but the shell provides react@19.3.1');
  });

  it('accepts a singleton only remotes share when their versions agree', () => {
    const zod = (version: string, requiredVersion: string) => ({ name: 'zod', version, singleton: true, requiredVersion });
    expect(checkSharedVersions(shell, [{ remote: 'account', shared: [zod('4.6.7', '^4.6.0')] }, { remote: 'api-keys', shared: [zod('4.6.9', '^4.6.7')] }])).toEqual([]);
  });

  it('flags remotes sharing a singleton the shell does not, in versions that do not agree', () => {
    const zod = (version: string, requiredVersion: string) => ({ name: 'zod', version, singleton: true, requiredVersion });
    const problems = checkSharedVersions(shell, [{ remote: 'account', shared: [zod('4.6.7', '^4.6.7')] }, { remote: 'chat', shared: [zod('3.25.0', '^3.25.0')] }]);
    expect(problems.map((p) => [p.remote, p.pkg, p.provided])).toEqual([
      ['account', 'zod', '3.25.0'],
      ['chat', 'zod', '4.6.7'],
    ]);
    expect(problems[0]!.message).toBe('account needs zod@^4.6.7, but chat would provide zod@3.25.0 if it loads first (the shell does not share zod)');
  });

  it('ignores non-singletons', () => {
    expect(checkSharedVersions(shell, [{ remote: 'chat', shared: [{ name: 'lodash', version: '4.0.0', requiredVersion: '^4.0.0' }] }])).toEqual([]);
  });
});
