/** No request is held longer than 10 seconds (CONTRACT §16.29): past 9 s it answers 503 (`requestLifecycle`). */
export const REQUEST_DEADLINE_MS = 9000;
