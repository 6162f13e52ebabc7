import { checkPage, expect, test, visit } from './support';

// The public pages: the entry page and the API reference (Redoc, served by this server).
test('the entry page links to the console, the wallet, the API reference and the OpenAPI document', async ({
  page,
}) => {
  await visit(page, '/');
  await expect(page.getByRole('heading', { name: 'Corridor', level: 1 })).toBeVisible();
  for (const name of ['Admin console', 'Wallet', 'API reference', 'OpenAPI document'])
    await expect(page.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
  const doc = await page.request.get(
    (await page.getByRole('link', { name: /^OpenAPI document/ }).getAttribute('href')) ?? '',
  );
  expect((await doc.json()).openapi).toBe('3.1.0');
  await checkPage(page, 'home');
});

test('the API reference renders the served OpenAPI document', async ({ page }) => {
  // Redoc lays out every operation again at each width the check takes (1280, 390, then back).
  test.setTimeout(360_000);
  await visit(page, '/docs');
  await expect(page.getByRole('heading', { name: /Create a transfer quote/ }).first()).toBeAttached({
    timeout: 30_000,
  });
  // Redoc renders all 153 operations at once (tens of thousands of nodes): axe over the whole page
  // took over three minutes on CI. It checks what repeats on the page instead — the banner, the
  // menu, the introduction and one whole operation (every operation is rendered the same way).
  await checkPage(page, 'docs', {
    fullPage: false, // the whole reference is tens of thousands of pixels tall
    include: ['header[role="banner"]', '.menu-content', '.api-info', '[data-section-id="operation/createQuote"]'],
  });
});
