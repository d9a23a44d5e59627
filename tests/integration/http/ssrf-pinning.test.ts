import { afterEach, describe, expect, it } from 'vitest';
import { WebhookClient } from '../../../src/outbound/webhook-client.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * The connection goes to the address the SSRF guard checked, never to a second DNS answer:
 * the host name below resolves only through the guard's lookup (the system resolver does not
 * know it), and the request still arrives, with the host name in the Host header.
 */
let receiver: WebhookReceiver;
let client: WebhookClient | undefined;
afterEach(async () => {
  await client?.close();
  await receiver?.close();
});

const message = (url: string) => ({ url, id: 'evt_pin', timestampSeconds: Math.floor(Date.now() / 1000), body: '{}', signature: 'v1,x' });

describe('callbacks › SSRF guard pins the connection', () => {
  it('connects to the checked address, keeping the host name for Host', async () => {
    receiver = await startWebhookReceiver();
    const lookups: string[] = [];
    client = new WebhookClient({
      timeoutMs: 5000,
      allowPrivate: true,
      now: () => new Date(),
      lookup: async (hostname) => {
        lookups.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const outcome = await client.send(message(`http://hooks.pinned.invalid:${receiver.port}/hook`));
    expect(outcome).toMatchObject({ ok: true, statusCode: 200 });
    expect(lookups).toEqual(['hooks.pinned.invalid']);
    expect(receiver.received[0]!.headers.host).toBe(`hooks.pinned.invalid:${receiver.port}`);
  });

  it('resolves once per attempt: the checked answer is final, a later DNS answer is never asked for', async () => {
    receiver = await startWebhookReceiver();
    let calls = 0;
    // A rebinding resolver: loopback first, something else on any later lookup.
    client = new WebhookClient({
      timeoutMs: 5000,
      allowPrivate: false,
      now: () => new Date(),
      lookup: async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '93.184.216.34', family: 4 }]),
    });
    const outcome = await client.send(message(`http://rebind.invalid:${receiver.port}/hook`));
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/^refused: rebind\.invalid: address not allowed; /);
    expect(calls).toBe(1);
    expect(receiver.received).toHaveLength(0);
  });

  it('an attempt to a name that resolves to 127.0.0.1 or 10.x says "address not allowed", never the address', async () => {
    for (const address of ['127.0.0.1', '10.20.30.40']) {
      client = new WebhookClient({ timeoutMs: 5000, allowPrivate: false, now: () => new Date(), lookup: async () => [{ address, family: 4 }] });
      const outcome = await client.send(message('https://billing.internal.example/hook'));
      await client.close();
      expect(outcome).toMatchObject({ ok: false, permanent: false });
      expect(outcome.error).toBe(
        'refused: billing.internal.example: address not allowed; callbacks go to public addresses only (PAYLINK_ALLOW_PRIVATE_CALLBACKS=1 lifts this for local development)',
      );
    }
    client = undefined;
  });
});
