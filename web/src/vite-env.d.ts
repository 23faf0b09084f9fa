/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The company named in the footer's copyright line; defaults to "Quern". */
  readonly VITE_COMPANY_NAME?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
