/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    paylink: import('./app.ts').PaylinkApp;
    requestId: string;
    /** The client's address (src/http/client-ip.ts); absent only when a test calls a route directly. */
    clientIp?: string;
    /** The matched route pattern (src/middleware.ts), for the request log. */
    route?: string;
    /** The authenticated integrator (src/api/endpoint.ts), for the request log. */
    integratorId?: string;
    /** Set (to the limit, in bytes) when the body went over the HTTP layer's limit (src/http/request-body.ts). */
    bodyTooLarge?: number;
    /** Set by a page rendered once per version (src/api/page-cache.ts) for the middleware. */
    renderOnce?: import('./api/page-cache.ts').RenderOnce;
    /** What the middleware read looking for a kept payment page, for the page (src/api/payment-pages.ts). */
    paymentPageLoaded?: import('./api/payment-pages.ts').LoadedPaymentPage;
    /** A payment page of a merchant whose acquirer takes real money (live keys): no Test mode badge. */
    liveAcquirer?: boolean;
  }
}
