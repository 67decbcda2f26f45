// What one attempt to send a request to a backend came to: the values the classifier returns and
// the retry loop, the queue and the counters act on. Values, not exceptions: every exporter handles
// every kind, and the type checker sees that it does.

/** Why an attempt failed, for logs and metrics; `http_status` (`grpc_status`) when the backend answered. */
export type FailureKind =
  | 'http_status'
  | 'grpc_status'
  | 'connection_refused'
  | 'connection_reset'
  | 'timeout'
  | 'dns'
  | 'tls'
  | 'proxy'
  | 'network'
  | 'aborted'
  | 'invalid_request';

/** A 2xx whose body says that the backend dropped part of the request (OTLP `partial_success`). */
export interface PartialSuccess {
  /** rejected_log_records, rejected_spans or rejected_data_points; 0 when only a message came. */
  rejected: number;
  /** The backend's error_message, bounded; may be empty. */
  message: string;
}

export interface SendSuccess {
  kind: 'success';
  status: number;
  partial?: PartialSuccess;
  /** The 2xx body was declared OTLP but could not be read, so a partial success may have gone unseen. */
  unreadableBody?: string;
}

export interface SendFailure {
  /** retryable: the same request may be accepted later; permanent: it never will be (drop it). */
  kind: 'retryable' | 'permanent';
  failure: FailureKind;
  /** The HTTP status, when the backend answered. */
  status?: number;
  /** The gRPC status's name, when a gRPC backend answered (the otlp exporter). */
  grpcStatus?: string;
  /** The delay the backend asked for (Retry-After on a 429 or 503), when it asked for one. */
  retryAfterMs?: number;
  /** The backend's own words from the response body (google.rpc.Status message, JSON or text), bounded. */
  backendMessage?: string;
  /** One line for a log: what happened, with the backend's message when it sent one. */
  message: string;
}

export type SendOutcome = SendSuccess | SendFailure;
