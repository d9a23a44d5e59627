/**
 * The QR Ph panel's script (src/components/QrPanel.astro), the only script on a page showing a
 * QR code: counts the code's time down, asks the checkout's status every few seconds (and at once
 * when "I have paid" is pressed), opens the receipt once the payment is confirmed, and otherwise
 * lets the server show what comes next: the page with the decline's words, or reloaded (the code
 * expired, the checkout ended). Without it the page works the same, by the "I have paid" button.
 */

/** Between two questions to the status endpoint: well under its rate limit, quick enough to feel immediate. */
const POLL_MS = 3000;

interface Status {
  status?: string;
  receipt_url?: string;
  decline_code?: string;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

export function watchQr(panel: HTMLElement): void {
  const url = panel.dataset.statusUrl!;
  const clockEl = panel.querySelector<HTMLTimeElement>('[data-qr-clock]');
  const statusEl = panel.querySelector<HTMLElement>('[data-qr-status]');
  // Counted from the server's own reckoning of the time left, not the device's clock (which may be off).
  const endsAt = performance.now() + Number(panel.dataset.left) * 1000;
  let done = false;

  const finish = (to?: string) => {
    done = true;
    if (to?.startsWith('/')) location.assign(to);
    else location.reload();
  };

  const tick = () => {
    if (done) return;
    const left = Math.max(0, Math.ceil((endsAt - performance.now()) / 1000));
    if (clockEl) {
      clockEl.textContent = clock(left);
      clockEl.dateTime = `PT${left}S`;
    }
    // A second past the end: the server then shows the expired code and offers a new one.
    if (endsAt - performance.now() < -1000) finish();
  };

  const ask = async (pressed: boolean) => {
    if (done) return;
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
      if (!res.ok) return;
      const body = await res.json();
      const s: Status = body?.data ?? body;
      if (s.status === 'succeeded') {
        if (statusEl) statusEl.textContent = panel.dataset.paidText ?? '';
        finish(s.receipt_url ?? location.pathname);
      } else if (s.status === 'declined' && s.decline_code && /^[a-z_]+$/.test(s.decline_code)) {
        // The page says why, in the customer's words, and offers the methods again.
        finish(`${location.pathname}?payment=${s.decline_code}`);
      } else if (s.status !== 'awaiting_scan' && s.status !== 'processing') finish();
      else if (pressed && statusEl) statusEl.textContent = panel.dataset.checkedText ?? '';
    } catch {
      // Offline for a moment: the next question will tell.
    }
  };

  panel.querySelector('[data-qr-check]')?.addEventListener('submit', (event) => {
    event.preventDefault();
    void ask(true);
  });
  setInterval(tick, 1000);
  setInterval(() => void ask(false), POLL_MS);
}
