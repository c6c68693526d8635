// PluginId: a Holo plugin ID, [a-z0-9][a-z0-9-]* (holo-plugin-interface(7), "Plugin discovery").

/** The form of a plugin ID. */
export const pattern = /^[a-z0-9][a-z0-9-]*$/

/** The longest plugin ID plait accepts (it becomes a file name, holo-ID). */
export const maxLength = 200

// guards

/** True for a valid plugin ID. */
export const valid = (id: string): boolean => id.length <= maxLength && pattern.test(id)

/** Why a text is not a plugin ID, or undefined when it is one. */
export const problem = (id: string): string | undefined =>
  id === ''
    ? 'the plugin ID is empty'
    : id.length > maxLength
      ? `the plugin ID is longer than ${maxLength} characters`
      : pattern.test(id)
        ? undefined
        : `${JSON.stringify(id)} is not a plugin ID (lower-case letters, digits and "-", not starting with "-")`
