/** How many of a run's last events `run_status` (MCP) returns unless asked for another number: for the tool and for its schema's text. */
export const DEFAULT_RUN_STATUS_EVENTS = 200;
