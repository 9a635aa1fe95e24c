/**
 * `loadConfig` for commands that usually find no configuration file: the defaults without
 * loading the configuration's parser and schema (the YAML library and zod), which are
 * imported only when there is a file to read.
 */
import { CONFIG_PATH } from "../layout/checked-path.js";
import { defaultConfig, type NomaConfig } from "./config-defaults.js";
import type { LoadConfigOptions } from "./load-config.js";

export async function loadConfigLazy(options: LoadConfigOptions): Promise<NomaConfig> {
  let read = options.read;
  if (options.override === undefined) {
    const text = options.read(CONFIG_PATH);
    if (text === null) return defaultConfig();
    read = (p) => (p === CONFIG_PATH ? text : options.read(p)); // read once
  }
  const { loadConfig } = await import("./load-config.js");
  return loadConfig({ ...options, read });
}
