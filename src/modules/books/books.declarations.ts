import { declare } from '../../registry/declarations';

/** What the books module adds to the app's tables (src/registry/declarations.ts): nothing yet — it reads, and answers the kernel's INVALID_REQUEST. */
export const BOOKS = declare({});

type Books = typeof BOOKS;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    books: Books;
  }
}
