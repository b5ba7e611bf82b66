import { defineShellConfig } from '../rsbuild.shared.ts';

export default defineShellConfig(import.meta.dirname);
