/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    paylink: import('./app.ts').PaylinkApp;
    requestId: string;
  }
}
