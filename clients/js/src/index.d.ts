// Types of @claimcheck/client (hand-written; the package has no build step).

/** The options of a Client; every one has a default (see `defaults`). */
export interface ClientOptions {
  /** Milliseconds without a byte either way before a request is dropped and retried (0: none). Default 30000. */
  timeout?: number;
  /** Attempts after the first for a line that gets no answer (an attempt that answers some lines starts the count again). Default 8. */
  retries?: number;
  /** Requests open at once, across all the calls of this Client. Default 4. */
  maxInFlight?: number;
  /** Lines per request. Default 10000 (lowered for the rest of a run to the server's cap when it cuts with max_batch_lines, or twice at the same count). */
  maxLines?: number;
  /** Bytes of lines per request; a longer line goes alone. Default 8 MiB. */
  maxBytes?: number;
  /** Records read ahead of the results taken (the memory bound of a run). Default 20000. */
  maxPending?: number;
  /** Bytes of the lines read ahead. Default 16 MiB. */
  maxPendingBytes?: number;
  /** Milliseconds without a new record before an open request's body is ended. Default 1000. */
  linger?: number;
  /** The first backoff in milliseconds, doubled for each failed attempt (with jitter). Default 200. */
  retryDelay?: number;
  /** The longest backoff in milliseconds. Default 10000. */
  maxRetryDelay?: number;
  /** The longest Retry-After honoured, in milliseconds. Default 60000. */
  maxRetryAfter?: number;
  /** Headers sent with every request (such as Authorization). */
  headers?: Record<string, string>;
  /** An http.Agent or https.Agent to use instead of the Client's own keep-alive agent; give it maxSockets >= maxInFlight (a request must not wait in the agent's queue). */
  agent?: import("node:http").Agent;
}

export declare const defaults: Readonly<Required<Omit<ClientOptions, "headers" | "agent">>>;

/** A tool: `"id"` (its newest version, from GET /v1/tools) or `"id@version"`. */
export type Tool = string;

/** A document: a JSON value (sent with JSON.stringify; NaN and ±Infinity are refused) or Raw text sent as written. */
export type Document = unknown;

/** One record: the tool and the document to check. */
export type CheckRecord = readonly [tool: Tool, document: Document];

/** Raw JSON text, sent as written (a string UTF-8 encoded, a Uint8Array byte for byte); it must not contain "\n". */
export declare class Raw {
  /** @throws TypeError when text contains a newline or is neither a string nor a Uint8Array. */
  constructor(text: string | Uint8Array);
  readonly text: string | Uint8Array;
}

/** An output document of a tool. */
export interface OutputDocument {
  valid: boolean;
  [member: string]: unknown;
}

/** An error document: the line could not be checked (malformed JSON, a refused document, a limit). */
export interface ErrorDocument {
  error: { code: string; path: string; message: string; [member: string]: unknown };
}

/** One answer. */
export declare class Result {
  /** true or false for an output document, null for an error document. */
  readonly valid: boolean | null;
  /** The answer line parsed (on first access). */
  readonly document: OutputDocument | ErrorDocument;
  /** The answer line exactly as the server wrote it (the bytes of `claimcheck batch`), without its newline. */
  readonly raw: string;
  toJSON(): { valid: boolean | null; document: OutputDocument | ErrorDocument; raw: string };
}

/** The client gave up on a request, or the server refused it (400, 404, 413, 415, ...). */
export declare class ClaimcheckError extends Error {
  readonly name: "ClaimcheckError";
  /** The HTTP status of the last failure, or null for a network failure or a cut stream. */
  readonly status: number | null;
  /** The server's error document, if it sent one. */
  readonly document: ErrorDocument | null;
  /** Its error code (document.error.code), or null. */
  readonly code: string | null;
  /** The results delivered, in order, before the error: the first `answered` records have theirs. */
  answered: number;
  /** The tool (id@version) of the failed request, if any. */
  readonly tool: string | null;
  /** From checkMany: the results before the error. */
  results?: Result[];
  readonly cause?: unknown;
}

export interface Progress {
  done: number;
  /** The number of records, when records is an array. */
  total: number | undefined;
}

export declare class Client {
  /** @throws TypeError for a URL that is not http: or https:, or a bad option. */
  constructor(baseUrl: string | URL, options?: ClientOptions);
  readonly options: Readonly<Required<Omit<ClientOptions, "headers" | "agent">>>;
  /** Counters: batch requests started, failed or cut requests sent again, lines sent again. */
  readonly stats: { requests: number; retries: number; resent: number };
  /** Wrap JSON text to send as written. */
  static raw(text: string | Uint8Array): Raw;
  /** The tool descriptors (GET /v1/tools), fetched once. */
  tools(): Promise<Array<{ id: string; version: string; [member: string]: unknown }>>;
  /** Check one document. */
  check(tool: Tool, document: Document): Promise<Result>;
  /** Check records; the results in record order. */
  checkMany(
    records: Iterable<CheckRecord> | AsyncIterable<CheckRecord>,
    options?: { onProgress?: (progress: Progress) => void },
  ): Promise<Result[]>;
  /** The results in record order, reading the records lazily, memory bounded whatever their number. */
  checkStream(records: Iterable<CheckRecord> | AsyncIterable<CheckRecord>): AsyncGenerator<Result, void, undefined>;
  /** checkStream with records coming in arrays and results going out in arrays (in order, not grouped as the records were). */
  checkStreamBatched(
    chunks: Iterable<readonly CheckRecord[]> | AsyncIterable<readonly CheckRecord[]>,
  ): AsyncGenerator<Result[], void, undefined>;
  /** Close the idle keep-alive connections of the Client's own agent. */
  close(): void;
}

/** The line a document is sent as (without "\n"). @throws TypeError for NaN, ±Infinity, BigInt, or no JSON form. */
export declare function encode(document: Document): string | Uint8Array;
