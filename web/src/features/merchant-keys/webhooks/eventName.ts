/** i18next splits keys on '.', so an event type's label is looked up with '_' in its place. */
export const eventNameKey = (type: string): string => `eventNames.${type.replace('.', '_')}`;
