/**
 * A laptop joins a team's Threadline as a new member would (issue 39), in Chromium against the
 * auth server: the admin adds her, she makes a token in Settings, runs the command Settings shows
 * (from a home folder of her own holding two real Claude Code sessions), and finds her sessions in
 * her list, private to her; the admin's /usage and /insights show her machine under By machine.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { AUTH_ADMIN, AUTH_URL, E2E_SERVERS } from "../playwright.config";
import { person, signIn } from "./page-helpers";

test.use({ baseURL: AUTH_URL });
test.skip(!E2E_SERVERS.has("auth"), "the auth server is not started (THREADLINE_E2E_SERVERS)");

const ROOT = path.resolve(import.meta.dirname, "..");
/** Two real sessions of one project (not the one the auth server follows itself: that one is the first admin's). */
const SESSIONS = path.join(ROOT, "fixtures", "real", "claude-code", "projects", "-home-marco-projects-spotter");

test("a new laptop joins with the command Settings shows; its sessions are its person's, and the admin sees its machine", async ({
  browser,
}) => {
  const stamp = Date.now();
  const pia = { name: "Pia", email: `pia-${stamp}@threadline.test`, password: "pia's password one" };
  const machine = `pia-laptop-${stamp}`;
  const admin = await person(browser, "10.22.0.1");
  await signIn(admin, AUTH_ADMIN);
  await expect(admin).toHaveURL(/\/settings$/);
  const add = admin.getByRole("form", { name: "Add a person" });
  await add.getByLabel("Name").fill(pia.name);
  await add.getByLabel("Email").fill(pia.email);
  await add.getByLabel("Password").fill(pia.password);
  await add.getByLabel("Role").selectOption("member");
  await add.getByRole("button", { name: "Add person" }).click();
  await expect(add.getByText(`Added ${pia.email}.`)).toBeVisible();

  // Pia makes a token for her laptop; Settings shows the command to run there.
  const piaPage = await person(browser, "10.22.0.2");
  await signIn(piaPage, pia);
  await expect(piaPage).toHaveURL(/\/settings$/);
  const form = piaPage.getByRole("form", { name: "Create an API token" });
  await form.getByLabel("Name").fill("my laptop");
  await form.getByRole("button", { name: "Create token" }).click();
  const command = (await piaPage.getByTestId("push-command").textContent())!.trim();
  const token = (await piaPage.getByTestId("new-token").textContent())!.trim();
  expect(command).toBe(`npm run push -- --server ${AUTH_URL} --token ${token}`);
  for (const width of [1440, 390]) {
    await piaPage.setViewportSize({ width, height: 900 });
    await piaPage
      .getByRole("status")
      .filter({ has: piaPage.getByTestId("push-command") })
      .screenshot({
        path: test.info().outputPath(`push-command-${width}.png`),
      });
  }

  // On her laptop (a home folder of her own), in a clone: the command as shown, once, named.
  const home = mkdtempSync(path.join(os.tmpdir(), "threadline-e2e-laptop-"));
  try {
    cpSync(SESSIONS, path.join(home, ".claude", "projects", path.basename(SESSIONS)), { recursive: true });
    const run = spawnSync("sh", ["-c", `${command} --once --machine ${machine}`], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: home } as unknown as NodeJS.ProcessEnv,
      encoding: "utf8",
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`sent 2 files`);
    expect(run.stdout).toContain("0 failed");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }

  // Her sessions are in her list, private to her.
  // (The list also holds what other tests' people shared with the team.)
  const listed = (await (await piaPage.request.get("/api/threads?limit=100")).json()) as {
    items: { id: string; title: string; machine: string | null }[];
  };
  const pushed = listed.items.filter((thread) => thread.machine === machine);
  expect(pushed).toHaveLength(2);
  await piaPage.goto("/threads");
  for (const thread of pushed) await expect(piaPage.locator(`li[data-thread-id="${thread.id}"]`)).toBeVisible();
  await piaPage.locator(`li[data-thread-id="${pushed[0]!.id}"]`).getByRole("link").first().click();
  await expect(piaPage.getByTestId("thread-visibility")).toHaveText("Private to you");

  // The admin's figures for February 2026, when the sessions were written: her machine, by name.
  await admin.goto("/usage?since=2026-02-01&until=2026-02-28");
  await expect(admin.getByTestId("by-machine")).toContainText(machine);
  await expect(admin.getByTestId("by-person")).toContainText("Pia");
  for (const width of [1440, 390]) {
    await admin.setViewportSize({ width, height: 900 });
    await admin.getByTestId("by-machine").screenshot({ path: test.info().outputPath(`usage-by-machine-${width}.png`) });
  }
  await admin.goto("/insights?since=2026-02-01&until=2026-02-28");
  await expect(admin.getByTestId("by-machine")).toContainText(machine);
  for (const width of [1440, 390]) {
    await admin.setViewportSize({ width, height: 900 });
    await admin.getByTestId("by-machine").screenshot({ path: test.info().outputPath(`insights-by-machine-${width}.png`) });
  }
  for (const page of [admin, piaPage]) await page.context().close();
});
