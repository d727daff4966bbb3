import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import { resolveLargeValues } from "./large-values";

type Adapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Adapter["queryRaw"]>[0];

/**
 * PostgreSQL's text cannot hold U+0000, which SQLite stores and tool output does contain. Text is
 * stored with NUL written as ESCAPE + "0" and ESCAPE itself doubled, and read back exactly, so both
 * databases keep the same characters. ESCAPE is U+FFFE, a noncharacter that text rarely holds.
 */
const ESCAPE = "\uFFFE";
const NEEDS_ENCODING = /[\u0000\uFFFE]/;

/** @internal exported for its tests */
export function encodeStoredText(text: string): string {
  if (!NEEDS_ENCODING.test(text)) return text;
  return text.replace(/[\u0000\uFFFE]/g, (char) => (char === "\u0000" ? `${ESCAPE}0` : ESCAPE + ESCAPE));
}

export function decodeStoredText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(/\uFFFE([0\uFFFE])/g, (_, next: string) => (next === "0" ? "\u0000" : ESCAPE));
}

/** Encodes the strings of a statement parameter (arrays too: the import writer binds columns as arrays). */
export function encodeParameter<T>(value: T): T {
  if (typeof value === "string") return encodeStoredText(value) as T;
  if (Array.isArray(value)) return value.map(encodeParameter) as T;
  return value;
}

function decodeRows<R extends { rows: unknown[][] }>(result: R): R {
  for (const row of result.rows) {
    for (let i = 0; i < row.length; i++) {
      if (typeof row[i] === "string") row[i] = decodeStoredText(row[i] as string);
    }
  }
  return result;
}

const encodeQuery = (query: Query): Query => ({ ...query, args: resolveLargeValues(query.args).map(encodeParameter) });

/** Wraps the Prisma adapter so every statement's text parameters are encoded and results decoded. */
export function keepNulCharacters(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => encodingAdapter(await factory.connect()),
  };
}

function encodingAdapter(adapter: Adapter): Adapter {
  const encoding: Adapter = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: async (query) => decodeRows(await adapter.queryRaw(encodeQuery(query))),
    executeRaw: (query) => adapter.executeRaw(encodeQuery(query)),
    executeScript: (script) => adapter.executeScript(script),
    dispose: () => adapter.dispose(),
    startTransaction: async (isolationLevel) => {
      const transaction: Transaction = await adapter.startTransaction(isolationLevel);
      return {
        provider: transaction.provider,
        adapterName: transaction.adapterName,
        options: transaction.options,
        queryRaw: async (query) => decodeRows(await transaction.queryRaw(encodeQuery(query))),
        executeRaw: (query) => transaction.executeRaw(encodeQuery(query)),
        commit: () => transaction.commit(),
        rollback: () => transaction.rollback(),
      };
    },
  };
  if (adapter.getConnectionInfo) encoding.getConnectionInfo = () => adapter.getConnectionInfo!();
  return encoding;
}
