// Resolved by rsbuild.shared.ts to the federated loader, or the bundled one in the monolith build.
declare module '#remote-loader' {
  export const loadRemoteModule: import('../shell/src/remotes/remote-loader.ts').LoadModule;
}
