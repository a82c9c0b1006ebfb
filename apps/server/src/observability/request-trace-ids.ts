/**
 * The trace id each request's log line names, set by the request's span (request-spans.ts): the
 * recorded trace, or the caller's for a request not sampled here. A module of its own, importing
 * nothing, so that the request log reads it without loading OpenTelemetry.
 */
export const requestTraceIds = new WeakMap<object, string>();
