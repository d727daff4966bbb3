import "server-only";
import { db } from "../engine/client";
import { WRITE_TRANSACTION } from "../engine/transactions";

/**
 * LLM settings saved from the Settings page (default models, the OpenAI-compatible server), as
 * AppSetting rows. A saved value overrides its environment variable (lib/llm/config.ts); a
 * missing row means "use the environment".
 * The API key is stored as entered (the database is as private as the server's env) and only
 * ever leaves this module towards lib/llm/config.ts.
 */
const LLM_SETTING_KEYS = {
  compactionModel: "llm.compactionModel",
  chatModel: "llm.chatModel",
  openaiCompatibleBaseUrl: "llm.openaiCompatible.baseUrl",
  openaiCompatibleApiKey: "llm.openaiCompatible.apiKey",
} as const;

type LlmSettingName = keyof typeof LLM_SETTING_KEYS;
export type StoredLlmSettings = Record<LlmSettingName, string | null>;
/** Per setting: a string saves it, null removes it, undefined (absent) leaves it as it is. */
export type LlmSettingsUpdate = Partial<Record<LlmSettingName, string | null>>;

const NAMES = Object.keys(LLM_SETTING_KEYS) as LlmSettingName[];

export async function readLlmSettings(): Promise<StoredLlmSettings> {
  const rows = await (await db()).appSetting.findMany({ where: { key: { in: Object.values(LLM_SETTING_KEYS) } } });
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  return Object.fromEntries(NAMES.map((name) => [name, byKey.get(LLM_SETTING_KEYS[name]) ?? null])) as StoredLlmSettings;
}

export async function saveLlmSettings(update: LlmSettingsUpdate): Promise<void> {
  const client = await db();
  await client.$transaction(async (tx) => {
    for (const name of NAMES) {
      const value = update[name];
      if (value === undefined) continue;
      const key = LLM_SETTING_KEYS[name];
      if (value === null) await tx.appSetting.deleteMany({ where: { key } });
      else await tx.appSetting.upsert({ where: { key }, create: { key, value }, update: { value } });
    }
  }, WRITE_TRANSACTION);
}
