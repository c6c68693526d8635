// ResourceId: a resource's identity, `type#name`, as CCM writes references.

/** Builds the id of a resource. */
export const make = (type: string, name: string): string => `${type}#${name}`
