import { defineRemoteConfig } from '../../rsbuild.shared.ts';

export default defineRemoteConfig(import.meta.dirname);
