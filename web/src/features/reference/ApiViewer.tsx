/**
 * Swagger UI drawing the merchant API's OpenAPI document (ADR 036). This module is the viewer's
 * own lazy chunk: nothing else imports swagger-ui-react, so no other page downloads it. Its
 * stylesheet is linked only while the viewer is shown, because the app's one stylesheet is
 * inlined into every prerendered page (ADR 023) and Swagger UI's would more than double it.
 * Everything comes from Quern's origin: the script, the stylesheet and the document.
 */
import { useEffect } from 'react';
import SwaggerUI from 'swagger-ui-react';
import stylesheetUrl from 'swagger-ui-react/swagger-ui.css?url';
import './apiViewer.css';

/** Where the API serves its document (api/src/v1/openapi.ts OPENAPI_PATH). */
export const OPENAPI_DOCUMENT_PATH = '/api/v1/openapi.json';

function useStylesheet(href: string): void {
  useEffect(() => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    document.head.append(link);
    return () => link.remove();
  }, [href]);
}

export default function ApiViewer() {
  useStylesheet(stylesheetUrl);
  return (
    <div className="api-viewer">
      {/*
        A reference, not a console: requests are not sent from the page (no "Try it out"), so no
        one is invited to paste a live key into a browser. Operation ids are shown: they are the
        names generated clients give the calls.
      */}
      <SwaggerUI
        url={OPENAPI_DOCUMENT_PATH}
        docExpansion="list"
        defaultModelsExpandDepth={0}
        displayOperationId
        supportedSubmitMethods={[]}
        deepLinking
      />
    </div>
  );
}
