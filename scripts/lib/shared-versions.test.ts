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

  it('flags a singleton the shell does not provide at all', () => {
    const problems = checkSharedVersions(shell, [{ remote: 'chat', shared: [{ name: 'mitt', version: '3.0.1', singleton: true, requiredVersion: '^3.0.1' }] }]);
    expect(problems[0]!.message).toContain('does not provide mitt');
  });

  it('ignores non-singletons', () => {
    expect(checkSharedVersions(shell, [{ remote: 'chat', shared: [{ name: 'lodash', version: '4.0.0', requiredVersion: '^4.0.0' }] }])).toEqual([]);
  });
});
