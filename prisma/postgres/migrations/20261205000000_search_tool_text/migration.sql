-- Search reads what a turn's parts add to its content as well: tool calls with their arguments,
-- tool outputs and thinking (lib/domain/threads/search.ts turnSearchDocument), so a word inside a collapsed
-- tool output is found. SQL cannot build that text with its secrets masked, so the turns whose
-- parts hold such a part are hidden from search (an empty copy matches nothing) until the scan for
-- secrets has written their copy (lib/db/secrets/search-texts.ts), as the migration that added the copies did.
UPDATE "Turn" SET "searchContent" = '' WHERE "parts" LIKE '%"type":"tool_call"%' OR "parts" LIKE '%"type":"tool_result"%' OR "parts" LIKE '%"type":"thinking"%';

INSERT INTO "AppSetting" ("key", "value") SELECT 'search.hiddenUntilMasked', 'until the scan has written the masked copies' WHERE EXISTS (SELECT 1 FROM "Turn" WHERE "searchContent" = '') AND NOT EXISTS (SELECT 1 FROM "AppSetting" WHERE "key" = 'search.hiddenUntilMasked');
