/**
 * The entry points' first step: the configuration and the mode's rules (ADR 049), checked before
 * the rest of Quern is even loaded, so a refused configuration answers at once with its one
 * message and exit code 1, and nothing is opened.
 */
import { type Config, loadConfig } from '../config.js';

export function configOrExit(name: string): Config {
  try {
    return loadConfig();
  } catch (error) {
    console.error(`[quern] ${name} could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
