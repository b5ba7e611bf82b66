// Build-time constants injected by rsbuild.shared.ts.
declare namespace NodeJS {
  interface ProcessEnv {
    ATELIER_REMOTE_VERSION?: string;
    ATELIER_SHELL_VERSION?: string;
    ATELIER_BUILD_TIME?: string;
  }
}
