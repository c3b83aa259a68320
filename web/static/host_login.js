// After a host login link: go to the host page from here, so the navigation is this site's own
// (the SameSite=Strict cookie goes with it) and the used secret leaves the address bar and the history.
"use strict";
location.replace("/host");
