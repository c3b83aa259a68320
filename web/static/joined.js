// After a join link: go to the seat page from here, so the navigation is this site's own
// (the SameSite=Strict cookie goes with it) and the token leaves the address bar.
"use strict";
location.replace("/seat");
