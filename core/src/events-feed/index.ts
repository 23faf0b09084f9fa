/** The events feed (issue 28, ADR 088): its types, whose each entry is, its cursor and its wire shapes. */
export * from './contracts.js';
export * from './cursor.js';
export * from './ids.js';
export * from './types.js';
