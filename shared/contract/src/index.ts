export { CONTRACT_MAJOR, LANGUAGES, REMOTE_NAMES, defineRemoteModule, checkContract, federationName } from './remote-module.ts';
export type {
  ContractMajor,
  Language,
  RemoteName,
  RemoteModule,
  RemoteI18n,
  NavigationItem,
  RemoteMount,
  LayoutName,
  ContractCheck,
} from './remote-module.ts';
export { parseRegistry, findMount, isAppPath, SHELL_PATHS, RegistryError } from './registry.ts';
export type { RemoteRegistry, RegistryEntry, RegistryVersion, MountMatch } from './registry.ts';
export type { AtelierEvents, ToastEvent, NotifyEvent, SessionSnapshot } from './events.ts';
