// The browser demo (web/dist, made by scripts/build-web.sh) in headless Chromium on software
// rendering: it loads with no console error and draws its first frame within 60 s; a
// screenshot shows sky, ground and the orange controlled character; W held for 2 s walks the
// character at least 2 m and Space lifts it off the ground (read from `window.spherewalk`,
// which the page sets each frame); a number key loads another scene; a browser without WebGPU
// and WebGL2 gets a message. Screenshots and a summary go to target/web-test/.
//
// Run from the repository root: node web/test/web-test.mjs   (CHROMIUM=path to override
// /usr/bin/chromium). Exits non-zero on the first failed check.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { chromium } from "playwright-core";

const OUT = "target/web-test";
const WIDTH = Number(process.env.W || 1280);
const HEIGHT = Number(process.env.H || 720);
fs.mkdirSync(OUT, { recursive: true });
const log = [];
const note = (line) => {
  console.log(`web-test: ${line}`);
  log.push(line);
};
const fail = (line) => {
  throw new Error(line);
};

/** Starts scripts/serve-web.sh on a free port; resolves to [process, address]. */
function serve() {
  const server = spawn("scripts/serve-web.sh", ["0"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("serve-web.sh printed no address in 10 s")), 10_000);
    server.stdout.on("data", (chunk) => {
      const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(String(chunk));
      if (match) {
        clearTimeout(timer);
        resolve([server, match[0]]);
      }
    });
    server.on("exit", (code) => reject(new Error(`serve-web.sh exited (${code})`)));
  });
}

/**
 * Colour statistics of rectangles (fractions of the image) of a PNG, read in a blank page's
 * 2D canvas: mean RGB, the spread of brightness, and the count of orange pixels.
 */
async function regions(browser, png, boxes) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async ({ data, boxes }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = image.width;
        canvas.height = image.height;
        const ctx = canvas.getContext("2d");
        ctx.drawImage(image, 0, 0);
        const out = {};
        for (const [name, [x0, y0, x1, y1]] of Object.entries(boxes)) {
          const x = Math.round(x0 * image.width);
          const y = Math.round(y0 * image.height);
          const w = Math.round((x1 - x0) * image.width);
          const h = Math.round((y1 - y0) * image.height);
          const px = ctx.getImageData(x, y, w, h).data;
          let r = 0, g = 0, b = 0, l = 0, l2 = 0, orange = 0;
          const n = px.length / 4;
          for (let i = 0; i < px.length; i += 4) {
            const [pr, pg, pb] = [px[i], px[i + 1], px[i + 2]];
            r += pr; g += pg; b += pb;
            const lum = 0.2126 * pr + 0.7152 * pg + 0.0722 * pb;
            l += lum; l2 += lum * lum;
            // The controlled character's orange, lit or shaded: red well above blue, green between.
            if (pr > 120 && pr - pb > 80 && pg > pb + 15 && pg < pr - 25) orange += 1;
          }
          const mean = l / n;
          out[name] = {
            rgb: [r / n, g / n, b / n].map(Math.round),
            spread: Math.round(Math.sqrt(Math.max(0, l2 / n - mean * mean))),
            orange,
          };
        }
        return out;
      },
      { data: png.toString("base64"), boxes },
    );
  } finally {
    await page.close();
  }
}

const probe = (page) => page.evaluate(() => window.spherewalk && { ...window.spherewalk });
const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

const started = Date.now();
const [server, address] = await serve();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    // WebGL2 on SwiftShader (no GPU here); Chromium asks for this flag since version 137.
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    // A closed network: no background connections to fail.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
let failed = null;
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  const noErrors = (when) => {
    if (errors.length) fail(`console errors ${when}: ${errors.join(" | ")}`);
  };

  const t0 = Date.now();
  await page.goto(address);
  try {
    // A frame, or the page's error line (then there is no point waiting on).
    await page.waitForFunction(
      () => window.spherewalk?.frames >= 1 || document.getElementById("status").className === "error",
      null,
      { timeout: 60_000 },
    );
  } catch {
    const status = await page.locator("#status").textContent();
    fail(`no frame drawn within 60 s (status line: ${JSON.stringify(status)}; errors: ${errors.join(" | ")})`);
  }
  const first = (Date.now() - t0) / 1000;
  let state = await probe(page);
  if (!state) fail(`the page stopped: ${await page.locator("#status").textContent()}`);
  note(`first frame after ${first.toFixed(1)} s on ${state.adapter}`);
  noErrors("while loading");
  if (!(await page.locator("#loading").isHidden())) fail("the loading line is still shown");

  // The frame rate over 3 s, then the settled scene.
  const f0 = state.frames;
  await page.waitForTimeout(3000);
  state = await probe(page);
  const fps = (state.frames - f0) / 3;
  note(`${fps.toFixed(1)} frames/s in headless Chromium (demo's own count: ${state.fps.toFixed(1)})`);
  const shot = await page.screenshot({ path: `${OUT}/galaxy.png` });
  // Sky above the level, right of the panel; the level's floor at the bottom middle; the
  // orange character in the middle (docs/screenshots/galaxy_ui.png is the same view).
  const stats = await regions(browser, shot, {
    sky: [0.3, 0.05, 0.98, 0.15],
    ground: [0.25, 0.75, 0.6, 0.95],
    middle: [0.3, 0.3, 0.7, 0.8],
  });
  note(`regions: ${JSON.stringify(stats)}`);
  const { sky, ground, middle } = stats;
  const bright = (c) => (c[0] + c[1] + c[2]) / 3;
  if (!(bright(sky.rgb) > 120 && sky.rgb[2] > sky.rgb[0] + 10 && sky.spread < 20)) {
    fail(`no sky at the top: ${JSON.stringify(sky)}`);
  }
  if (!(bright(ground.rgb) > 40 && ground.spread > 4 && distance(ground.rgb, sky.rgb) > 25)) {
    fail(`no floor at the bottom: ${JSON.stringify(ground)} (sky ${JSON.stringify(sky)})`);
  }
  if (!(middle.orange > 500)) fail(`no orange character in the middle: ${JSON.stringify(middle)}`);

  // Walking: W held for 2 s.
  await page.locator("#spherewalk").focus();
  const before = (await probe(page)).position;
  await page.keyboard.down("KeyW");
  await page.waitForTimeout(2000);
  await page.keyboard.up("KeyW");
  await page.waitForTimeout(300);
  const after = (await probe(page)).position;
  const walked = distance(before, after);
  note(`W for 2 s walked ${walked.toFixed(2)} m, from [${before.map((v) => v.toFixed(2))}] to [${after.map((v) => v.toFixed(2))}]`);
  if (!(walked >= 2)) fail(`W for 2 s walked only ${walked.toFixed(2)} m`);

  // Jumping: Space, then the character is off the ground within half a second.
  await page.waitForFunction(() => window.spherewalk.grounded === true, null, { timeout: 5000 });
  await page.keyboard.down("Space");
  const airborne = await page
    .waitForFunction(() => window.spherewalk.grounded === false, null, { timeout: 1000, polling: 10 })
    .then(() => true, () => false);
  await page.keyboard.up("Space");
  if (!airborne) fail("Space did not lift the character off the ground");
  note("Space: the character left the ground");

  // Another scene by its number key.
  const sceneBefore = (await probe(page)).scene;
  await page.keyboard.press("Digit2");
  await page.waitForFunction((name) => window.spherewalk.scene !== name, sceneBefore, { timeout: 10_000 });
  await page.waitForTimeout(1000);
  note(`key 2: scene "${sceneBefore}" became "${(await probe(page)).scene}"`);
  await page.screenshot({ path: `${OUT}/scene2.png` });
  noErrors("while playing");
  await page.close();

  // A browser with neither WebGPU nor WebGL2 gets a message, not a blank page.
  const bare = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-3d-apis", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const blank = await bare.newPage();
    await blank.goto(address);
    await blank.waitForFunction(() => document.getElementById("status").className === "error", null, {
      timeout: 30_000,
    });
    const message = await blank.locator("#status").textContent();
    if (!message.includes("neither WebGPU nor WebGL2")) fail(`without WebGL the page says: ${message}`);
    if (!(await blank.locator("#loading").isHidden())) fail("without WebGL the loading line stays");
    await blank.screenshot({ path: `${OUT}/no-webgl.png` });
    note(`without WebGPU and WebGL2 the page says: "${message.split("\n")[0]}"`);
  } finally {
    await bare.close();
  }
  note(`passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  failed = e;
} finally {
  await browser.close();
  server.kill();
  fs.writeFileSync(`${OUT}/summary.txt`, log.join("\n") + "\n");
}
if (failed) {
  console.error(`web-test: FAILED: ${failed.message}`);
  process.exit(1);
}
