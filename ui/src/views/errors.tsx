// The errors view (/ui/errors): the log rows that error-reporting SDKs wrote (those with
// exception.* attributes), grouped by exception type and message as the read API's error_groups
// groups and orders them (most events first), each with its count over time; a group opens to its
// latest event, its stack trace laid out frame by frame, and links to its log rows and its trace.
//
// The address holds range/from/to and service (components/query-filters.tsx), and the group
// opened: `type` and `message` (its exception type and message).
//
// data-testid: view-errors (the root; data-state loading, ready or error), errors-error (why the
// read failed), errors-summary, errors-empty, errors-limited (more groups than shown),
// error-groups (the list), error-group (one group), error-group-toggle (the button that opens it;
// aria-expanded), error-group-type, error-group-message, error-group-count, error-group-first,
// error-group-last, error-group-services, error-group-strip (its counts over time, data-buckets;
// one rect per non-empty bucket, data-count), error-event (the opened group's latest event),
// error-event-time, error-event-service, error-event-severity, error-event-body,
// error-stack-heading (the error: the stack trace's first line, a Python traceback's last),
// error-stack (the <pre>), error-stack-frame (each other line), error-stack-none,
// error-attributes (the event's attributes but its stack trace: components/attributes.tsx's table),
// error-logs-link, error-trace-link.
import type { Api } from '../api';
import { AttributeTable } from '../components/attributes';
import { CountStrip } from '../components/count-strip';
import { Link } from '../components/link';
import { QueryFilters, useQuery, type Query } from '../components/query-filters';
import { useRead } from '../components/use-read';
import { perBucket } from '../lib/buckets';
import { groupLogFilters } from '../lib/errors';
import { formatTime, severityBand } from '../lib/format';
import { rangeToParams } from '../lib/range';
import { splitStack } from '../lib/stack';
import type { ErrorGroup, ErrorGroups, LogRow } from '../rows';
import { BASE, traceHref, useFilters } from '../url';
import './errors.css';

const DEFAULTS = { type: '', message: '' };

/** Groups asked for at most (the read API's default). */
const GROUP_LIMIT = 100;

const STACK = 'exception.stacktrace';

/** The logs view with the rows of this error in the same range (lib/errors.ts's groupLogFilters). */
function logsHref(query: Query, group: ErrorGroup): string {
  const params = new URLSearchParams();
  rangeToParams(query.range, params);
  const { q, service } = groupLogFilters(group);
  if (q !== undefined) params.set('q', q);
  if (service !== undefined) params.set('service', service);
  const search = params.toString();
  return `${BASE}logs${search === '' ? '' : `?${search}`}`;
}

export function ErrorsView(props: { api: Api }) {
  const query = useQuery();
  const [filters, setFilters] = useFilters(DEFAULTS);
  const range = { from: String(query.from), to: String(query.to), ...(query.service === '' ? {} : { service: query.service }), limit: GROUP_LIMIT };
  const groups = useRead(`groups ${query.key}`, (signal) => props.api.errorGroups(range, signal));
  const shown = groups.state === 'ready' ? groups.data : groups.state === 'loading' ? groups.previous : undefined;
  const isOpen = (group: ErrorGroup): boolean => (filters.type !== '' || filters.message !== '') && group.exception_type === filters.type && group.exception_message === filters.message;
  const toggle = (group: ErrorGroup): void => {
    if (isOpen(group)) setFilters({ type: '', message: '' });
    else setFilters({ type: group.exception_type, message: group.exception_message }, 'push');
  };
  const state = groups.state === 'error' ? 'error' : groups.state === 'ready' ? 'ready' : 'loading';

  return (
    <section class="view errors" data-testid="view-errors" data-state={state}>
      <h1>Errors</h1>
      <QueryFilters query={query} />
      {groups.state === 'error' && (
        <p class="message" role="alert" data-testid="errors-error">
          {groups.message}
        </p>
      )}
      {shown !== undefined && <GroupList answer={shown} query={query} isOpen={isOpen} toggle={toggle} />}
    </section>
  );
}

function GroupList(props: { answer: ErrorGroups; query: Query; isOpen: (group: ErrorGroup) => boolean; toggle: (group: ErrorGroup) => void }) {
  const { answer, query } = props;
  if (answer.rows.length === 0) {
    return <p data-testid="errors-empty">No errors in this range{query.service === '' ? '' : ` for the service ${query.service}`}.</p>;
  }
  const events = answer.rows.reduce((n, group) => n + group.count, 0);
  return (
    <>
      <p class="hint" data-testid="errors-summary">
        {answer.rows.length} {answer.rows.length === 1 ? 'group' : 'groups'} of {events} {events === 1 ? 'error' : 'errors'}, the most frequent first.
      </p>
      <ul class="error-groups" data-testid="error-groups">
        {answer.rows.map((group, i) => {
          const open = props.isOpen(group);
          const id = `error-event-${i}`;
          return (
            <li key={`${group.exception_type}\u0000${group.exception_message}`} class="error-group" data-testid="error-group">
              <h2>
                <button type="button" class="group-toggle" aria-expanded={open} aria-controls={open ? id : undefined} data-testid="error-group-toggle" onClick={() => props.toggle(group)}>
                  <span class="group-type" data-testid="error-group-type">
                    {group.exception_type === '' ? '(no type)' : group.exception_type}
                  </span>
                  <span class="group-message" data-testid="error-group-message">
                    {group.exception_message === '' ? '(no message)' : group.exception_message}
                  </span>
                </button>
              </h2>
              <p class="group-facts">
                <span>
                  <strong data-testid="error-group-count">{group.count}</strong> {group.count === 1 ? 'event' : 'events'}
                </span>
                <span>
                  first <time data-testid="error-group-first">{formatTime(group.first_time_unix_nano)}</time>
                </span>
                <span>
                  last <time data-testid="error-group-last">{formatTime(group.last_time_unix_nano)}</time>
                </span>
                <span data-testid="error-group-services">{group.services.join(', ')}</span>
              </p>
              <CountStrip counts={perBucket(answer, group.counts)} step={answer.step_nano} what={group.count === 1 ? 'event' : 'events'} testid="error-group-strip" />
              {open && <LatestEvent id={id} group={group} query={query} />}
            </li>
          );
        })}
      </ul>
      {answer.rows.length >= GROUP_LIMIT && (
        <p class="hint" data-testid="errors-limited">
          The {GROUP_LIMIT} groups with the most errors are shown; narrow the range or the service to see others.
        </p>
      )}
    </>
  );
}

function LatestEvent(props: { id: string; group: ErrorGroup; query: Query }) {
  const row: LogRow = props.group.latest;
  const stackValue = row.attributes[STACK];
  const stack = typeof stackValue === 'string' && stackValue.trim() !== '' ? splitStack(stackValue) : undefined;
  // The stack trace is shown above, frame by frame.
  const attributes = Object.fromEntries(Object.entries(row.attributes).filter(([key]) => key !== STACK));
  return (
    <div id={props.id} class="error-event" data-testid="error-event">
      <h3>Latest event</h3>
      <dl class="facts">
        <dt>Time</dt>
        <dd data-testid="error-event-time">{formatTime(row.time_unix_nano)}</dd>
        <dt>Service</dt>
        <dd data-testid="error-event-service">{row.service_name === '' ? '(none)' : row.service_name}</dd>
        <dt>Severity</dt>
        <dd data-testid="error-event-severity">{row.severity_text !== '' ? row.severity_text : severityBand(row.severity_number)}</dd>
        <dt>Body</dt>
        <dd class="event-body" data-testid="error-event-body">
          {row.body}
        </dd>
      </dl>
      {stack === undefined ? (
        <p data-testid="error-stack-none">No stack trace came with this event.</p>
      ) : (
        <section class="stack" aria-label="Stack trace">
          <h4 class="stack-heading" data-testid="error-stack-heading">
            {stack.heading}
          </h4>
          {stack.lines.length > 0 && (
            <pre data-testid="error-stack">
              <code>
                {stack.lines.map((line, i) => (
                  <span key={i} class="frame" data-testid="error-stack-frame">
                    {line}
                    {'\n'}
                  </span>
                ))}
              </code>
            </pre>
          )}
        </section>
      )}
      {Object.keys(attributes).length > 0 && (
        <>
          <h4>Attributes</h4>
          <AttributeTable attributes={attributes} testid="error-attributes" label="The event's attributes" />
        </>
      )}
      <p class="event-links">
        <Link href={logsHref(props.query, props.group)} testid="error-logs-link">
          Its log rows
        </Link>
        {row.trace_id !== '' && (
          <Link href={traceHref(row.trace_id)} testid="error-trace-link">
            Its trace
          </Link>
        )}
      </p>
    </div>
  );
}
