// The errors view's link from a group to its log rows.

export interface GroupOfLogs {
  exception_message: string;
  services: readonly string[];
  latest: { body: string };
}

/**
 * The logs view's filters that find a group's rows (besides the range): its exception message as
 * the text to look for, where the rows' body holds it (else none: a whole body would match its own
 * event alone), and its service when it has one only (else every service's rows would not all be).
 */
export function groupLogFilters(group: GroupOfLogs): { q?: string; service?: string } {
  const message = group.exception_message;
  const only = group.services.length === 1 ? group.services[0] : undefined;
  return {
    ...(message !== '' && group.latest.body.includes(message) ? { q: message } : {}),
    ...(only !== undefined && only !== '' ? { service: only } : {}),
  };
}
