/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    paylink: import('./app.ts').PaylinkApp;
    requestId: string;
    /** The client's address (src/http/client-ip.ts); absent only when a test calls a route directly. */
    clientIp?: string;
  }
}
