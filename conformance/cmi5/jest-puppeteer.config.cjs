// The suite's browser: the machine's Chromium, headless, no downloads of its own (run.sh).
module.exports = {
  launch: {
    headless: true,
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
};
