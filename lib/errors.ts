export type ErrorType =
  | "authentication_error"
  | "permission_error"
  | "invalid_request_error"
  | "not_found_error"
  | "rate_limit_error"
  | "api_error";

const STATUS_BY_TYPE: Record<ErrorType, number> = {
  authentication_error: 401,
  permission_error: 403,
  invalid_request_error: 400,
  not_found_error: 404,
  rate_limit_error: 429,
  api_error: 500,
};

/**
 * The one error type of the service. Thrown anywhere; the /v1 pipeline maps it
 * to `{ error: { type, code, message, param } }` and the admin CLI to stderr.
 */
export class ApiError extends Error {
  readonly type: ErrorType;
  readonly code: string;
  readonly status: number;
  readonly param?: string;
  readonly headers?: Record<string, string>;

  constructor(opts: {
    type: ErrorType;
    code: string;
    message: string;
    param?: string;
    status?: number;
    headers?: Record<string, string>;
  }) {
    super(opts.message);
    this.name = "ApiError";
    this.type = opts.type;
    this.code = opts.code;
    this.status = opts.status ?? STATUS_BY_TYPE[opts.type];
    this.param = opts.param;
    this.headers = opts.headers;
  }
}

export function validationFailed(param: string, message: string): ApiError {
  return new ApiError({ type: "invalid_request_error", code: "validation_failed", message, param });
}

export function notFound(code: string, message: string, param?: string): ApiError {
  return new ApiError({ type: "not_found_error", code, message, param });
}
