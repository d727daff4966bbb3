/**
 * The AppSetting key of the secret scan's cursor: the last turn seq it has scanned
 * (lib/secrets/scan.ts). An import that records its turns' findings itself moves it too, when
 * nothing before its turns was left to scan (lib/db/imports/import-writer.ts).
 */
export const SCAN_CURSOR_KEY = "secrets.scannedSeq";
