import { test, expect } from '@playwright/test';
import { builtin, builtinIds, setSwitch, chooseScenario, openApp, scrubRange, scrubTo, dataArrived } from './helpers';

// Lock Lab runs the whole cluster in the page: once loaded, it needs no network at all, and it
// never talks to anything but its own origin (no fonts, analytics or CDNs).
test('makes no request outside its own origin and keeps working offline', async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  const errors: string[] = [];
  const isForeign = (url: string) => {
    const u = new URL(url);
    return !['data:', 'blob:', 'about:'].includes(u.protocol) && u.origin !== origin;
  };
  page.on('request', (r) => isForeign(r.url()) && foreign.push(r.url()));
  page.on('websocket', (ws) => foreign.push(ws.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // Refuse anything foreign too, so a regression cannot leak out of the sandbox.
  await context.route((url) => isForeign(url.href), (route) => route.abort());

  await openApp(page);
  await dataArrived(page);
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);

  const all = await page.getByTestId('scenario-picker').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  // The picker lists every built-in.
  expect([...all].sort()).toEqual(builtinIds());
  // Walked: one built-in per approach (each approach's code runs offline): every built-in's run
  // is the native and wasm suites' to check, and walking all forty here is what made it slow.
  const seen = new Set<string>();
  const ids = all.filter((id) => !seen.has(builtin(id).approach) && !!seen.add(builtin(id).approach));
  expect(ids.length).toBe(seen.size);
  const fencing = page.getByTestId('fencing-toggle');
  for (const id of ids) {
    await chooseScenario(page, id);
    await scrubTo(page, (await scrubRange(page)).max);
    const verdict = page.getByTestId('verdict');
    await expect(verdict).toHaveAttribute('data-safe', /^(true|false)$/);
    if (await fencing.isEnabled()) {
      const was = await fencing.isChecked();
      await setSwitch(page, 'fencing-toggle', !was);
      await setSwitch(page, 'fencing-toggle', was);
    }
  }

  expect(foreign, 'requests outside the page origin').toEqual([]);
  expect(errors, 'page errors and console errors').toEqual([]);
});
