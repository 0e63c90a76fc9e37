import "server-only";

import type { Inngest, InngestFunction } from "inngest";
import { errors, type InngestExecution } from "inngest/internals";
import { StepMode } from "inngest/types";

import type { MemoisedStep } from "@/lib/db/schema";

import type { Run } from "./claim-runs";
import type { RegisteredFunction } from "./registry";

/** What the SDK reports of one step: its op (StepRun, StepError, Sleep, …) and what goes with it. */
export interface Op {
  op: string;
  id: string;
  name?: string;
  /** The step's own id, as written in the function (`id` is its hash). */
  userland?: { id: string };
  /** A waitForEvent's `timeout` and `if` (`match` arrives as an `if`). */
  opts?: { timeout?: string; if?: string };
  data?: unknown;
  error?: { name: string; message: string; stack?: string };
}

/**
 * How one call of a function ended, as the SDK's serve handler would have answered an Inngest
 * server: 200 with the function's result, 206 with the ops it reports, or an error (500 retriable,
 * 400 not) with `retryAfter` a step's or the function's RetryAfterError.
 */
export interface Called {
  status: 200 | 206 | 400 | 500;
  retriable: boolean;
  retryAfter: string | null;
  body: unknown;
}

type Middleware = new (args: { client: Inngest.Any }) => object;
/** What wrapRequest's `next` resolves with: the answer, as a response whose body is the answer itself. */
interface Wrapped {
  status: number;
  headers: Record<string, string>;
  body: Called;
}
type WrapRequest = (args: {
  next: () => Promise<Wrapped>;
  requestArgs: unknown[];
  requestInfo: unknown;
  runId: string;
  fn: InngestFunction.Any;
}) => Promise<Wrapped>;

/** The SDK's own entry to a function's execution, the one its serve handler calls once a request is parsed. */
interface Executable {
  createExecution(opts: { partialOptions: Omit<InngestExecution.InngestExecutionOptions, "fn"> }): {
    start(): Promise<InngestExecution.ExecutionResult>;
  };
}

/**
 * Calls a function through the SDK's execution engine, in-process, with what an Inngest server
 * would send: the run's event and its memoised steps, so the SDK replays them and runs the next.
 * The serve handler would do the same behind an HTTP request: building it, checking its signature,
 * parsing its body, serialising the answer. The engine is the same code in both modes; only the
 * request around it is skipped. Middleware still wraps each call (`wrapRequest`: the SDK's logger
 * flushes there), seeing the answer's body as a value rather than JSON text.
 */
export function createFunctionCaller(options: { client: Inngest.Any; functions: InngestFunction.Any[] }) {
  const client = options.client;
  const clientMiddleware = (client as unknown as { middleware?: Middleware[] }).middleware ?? [];
  const urls = new Map(
    options.functions.map((fn) => {
      const slug = fn.id(client.id);
      return [slug, new URL(`http://embedded.local/api/inngest?fnId=${encodeURIComponent(slug)}`)] as const;
    }),
  );

  const checkpoints = checkpointsOf(client);

  return async function invoke(run: Run, registered: RegisteredFunction, how: CallOptions = {}): Promise<Called> {
    const { plannedStep, checkpoint } = how;
    // A checkpoint stands for this call only: a planned step's call reports its one step, as before.
    const checkpointing = checkpoint !== undefined && plannedStep === undefined;
    if (checkpointing) checkpoints.set(run.id, checkpoint);
    try {
      const fnMiddleware = (registered.fn as unknown as { opts: { middleware?: Middleware[] } }).opts.middleware ?? [];
      const middleware = [...clientMiddleware, ...fnMiddleware].map((Cls) => new Cls({ client }));
      // A fresh copy for the function: what it does to its event or a step's result stays in this call,
      // as it did when each call parsed its own request.
      const { event, steps } = JSON.parse(JSON.stringify({ event: run.event, steps: run.steps })) as Pick<
        Run,
        "event" | "steps"
      >;
      const requestInfo = {
        headers: {},
        method: "POST",
        url: urls.get(registered.slug)!,
        body: () => Promise.resolve({ event, steps }),
      };
      const call = async (): Promise<Wrapped> => {
        const execution = (registered.fn as unknown as Executable).createExecution({
          partialOptions: {
            client,
            runId: run.id,
            stepMode: checkpointing ? StepMode.AsyncCheckpointing : StepMode.Async,
            // What an Inngest server names the run's function and queue item; the checkpoint is found by the run's id.
            ...(checkpointing ? { internalFnId: registered.slug, queueItemId: run.id } : {}),
            data: {
              event,
              events: [event],
              runId: run.id,
              attempt: run.attempt,
              maxAttempts: registered.maxAttempts,
            } as unknown as InngestExecution.InngestExecutionOptions["data"],
            stepState: stepStateOf(steps),
            priorDefers: {},
            requestedRunStep: plannedStep,
            handlerKind: "main",
            disableImmediateExecution: plannedStep !== undefined,
            stepCompletionOrder: run.stepOrder,
            reqArgs: [],
            headers: {},
            requestInfo,
            middlewareInstances: middleware,
          } as unknown as Omit<InngestExecution.InngestExecutionOptions, "fn">,
        });
        const called = answer(await execution.start());
        return { status: called.status, headers: {}, body: called };
      };
      // The middleware's wrapRequest hooks around the call, the first outermost, as the serve handler chains them.
      let chain = call;
      for (const mw of [...middleware].reverse() as { wrapRequest?: WrapRequest }[]) {
        if (!mw.wrapRequest) continue;
        const next = chain;
        const wrap = mw.wrapRequest.bind(mw);
        chain = () => wrap({ next, requestArgs: [], requestInfo, runId: run.id, fn: registered.fn });
      }
      return (await chain()).body;
    } catch (error) {
      // As the serve handler answers a call it could not make: retriable.
      return {
        status: 500,
        retriable: true,
        retryAfter: null,
        body: asJson({ type: "internal", ...errors.serializeError(error) }),
      };
    } finally {
      if (checkpointing) checkpoints.delete(run.id);
    }
  };
}

/**
 * Saves the steps a call has run so far, before the function goes on in the same call. It resolves
 * once they are saved; it rejects, with `haltCall`'s error, to end the call there.
 */
export type Checkpoint = (ops: Op[]) => Promise<void>;

export interface CallOptions {
  /** The planned step to run (one of parallel steps): only that step, reported as it ends. */
  plannedStep?: string;
  /**
   * Given, the SDK runs the function on past each step in the same call (its async checkpointing),
   * handing each step's result here to be saved first, where it would otherwise end the call with
   * that step and be called again to replay it: a one-step function is one call, not two.
   */
  checkpoint?: Checkpoint;
}

/** What the SDK's checkpointing calls on its client's API; the rest of the API is left as it is. */
interface CheckpointApi {
  checkpointStepsAsync(args: { runId: string; steps: unknown[] }): Promise<void>;
}

const checkpointsByClient = new WeakMap<Inngest.Any, Map<string, Checkpoint>>();

/**
 * The checkpoints of the calls in progress, by run id. The SDK sends a checkpoint through its
 * client's API, to an Inngest server; in this process the client's one method for it takes the
 * checkpoints of runs called here, and passes any other on to the server as before.
 */
function checkpointsOf(client: Inngest.Any): Map<string, Checkpoint> {
  const known = checkpointsByClient.get(client);
  if (known) return known;
  const checkpoints = new Map<string, Checkpoint>();
  const api = (client as unknown as { inngestApi: CheckpointApi }).inngestApi;
  const toServer = api.checkpointStepsAsync.bind(api);
  api.checkpointStepsAsync = (args) => {
    const checkpoint = checkpoints.get(args.runId);
    return checkpoint ? checkpoint(asJson(args.steps) as Op[]) : toServer(args);
  };
  checkpointsByClient.set(client, checkpoints);
  return checkpoints;
}

/**
 * The error that ends a call at a checkpoint (its run's lease lost, or the executor stopping): the
 * SDK's mark of a stale dispatch, on which it stops the function at once. Without the mark (another
 * SDK version) it would retry the checkpoint and then report the steps as a call without checkpoints
 * does; the caller knows the call was ended either way.
 */
export function haltCall(reason: string): Error {
  return Object.assign(new Error(reason), { "~inngest": { kind: "StaleDispatchError" } });
}

/** The memoised steps as the SDK's engine takes them, an error given a name and a message as the serve handler's parse does. */
function stepStateOf(steps: Record<string, MemoisedStep>): Record<string, InngestExecution.MemoizedOp> {
  const state: Record<string, InngestExecution.MemoizedOp> = {};
  for (const [id, step] of Object.entries(steps)) {
    state[id] =
      step.type === "data"
        ? { id, data: step.data }
        : {
            id,
            error: { ...step.error, name: step.error.name || "Error", message: step.error.message || "Unknown error" },
          };
  }
  return state;
}

/** The serve handler's answer to an execution's result (InngestCommHandler.handleAction), its body as JSON would carry it. */
function answer(result: InngestExecution.ExecutionResult): Called {
  const retryAfter = (retriable: boolean | string | undefined) => (typeof retriable === "string" ? retriable : null);
  switch (result.type) {
    case "function-resolved":
      return { status: 200, retriable: true, retryAfter: null, body: asJson(result.data ?? null) };
    case "function-rejected":
      return {
        status: result.retriable ? 500 : 400,
        retriable: Boolean(result.retriable),
        retryAfter: retryAfter(result.retriable),
        body: asJson(result.error ?? null),
      };
    case "step-ran":
      return {
        status: 206,
        retriable: result.retriable === undefined ? true : Boolean(result.retriable),
        retryAfter: retryAfter(result.retriable),
        body: asJson([{ ...result.step, data: result.step.data ?? null }]),
      };
    case "steps-found":
      return {
        status: 206,
        retriable: true,
        retryAfter: null,
        body: asJson(result.steps.map((step) => ({ ...step, data: step.data ?? null }))),
      };
    case "step-not-found":
      return {
        status: 500,
        retriable: true,
        retryAfter: null,
        body: asJson({
          error: `Could not find step "${result.step.displayName || result.step.id}" to run; timed out.`,
          requestedStep: result.step.id,
          foundSteps: result.foundSteps,
          totalFoundSteps: result.totalFoundSteps,
        }),
      };
    case "change-mode":
      return {
        status: 500,
        retriable: false,
        retryAfter: null,
        body: { error: `the SDK asked to change mode to "${result.to}", which the embedded executor does not do` },
      };
  }
}

/**
 * A value as JSON carries it, which is how a step's result is memoised and read back at the next
 * replay: as the SDK serialises its answers, a BigInt is left out and a circular reference named.
 */
function asJson(value: unknown): unknown {
  const noBigInt = (_key: string, v: unknown) => (typeof v === "bigint" ? undefined : v);
  let text: string | undefined;
  try {
    text = JSON.stringify(value, noBigInt);
  } catch {
    const seen = new WeakSet<object>();
    text = JSON.stringify(value, (key, v: unknown) => {
      if (v && typeof v === "object") {
        if (seen.has(v)) return "[Circular ~]";
        seen.add(v);
      }
      return noBigInt(key, v);
    });
  }
  return text === undefined ? null : JSON.parse(text);
}
