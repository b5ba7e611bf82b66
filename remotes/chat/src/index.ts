// A remote has no page of its own: the shell mounts it through ./module.
export {};
