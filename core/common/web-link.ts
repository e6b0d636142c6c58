/** Whether a URL is one a reader's browser opens as a page (http or https), not a script or a file. */
export const isWebLink = (url: string) => /^https?:\/\//i.test(url);
