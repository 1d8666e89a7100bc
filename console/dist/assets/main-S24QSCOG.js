var _e,v,Be,Mt,F,qe,Ke,Ve,ye,ie,X,ze,ke,ve,we,Lt,le={},ce=[],Ht=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,pe=Array.isArray;function L(e,t){for(var n in t)e[n]=t[n];return e}function Se(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function de(e,t,n){var o,s,r,i={};for(r in t)r=="key"?o=t[r]:r=="ref"?s=t[r]:i[r]=t[r];if(arguments.length>2&&(i.children=arguments.length>3?_e.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(r in e.defaultProps)i[r]===void 0&&(i[r]=e.defaultProps[r]);return ae(e,i,o,s,null)}function ae(e,t,n,o,s){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:s??++Be,__i:-1,__u:0};return s==null&&v.vnode!=null&&v.vnode(r),r}function me(e){return e.children}function Y(e,t){this.props=e,this.context=t}function O(e,t){if(t==null)return e.__?O(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?O(e):null}function Wt(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,o=[],s=[],r=L({},t);r.__v=t.__v+1,v.vnode&&v.vnode(r),Ee(e.__P,r,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,o,n??O(t),!!(32&t.__u),s),r.__v=t.__v,r.__.__k[r.__i]=r,Ze(o,r,s),t.__e=t.__=null,r.__e!=n&&Je(r)}}function Je(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),Je(e)}function Oe(e){(!e.__d&&(e.__d=!0)&&F.push(e)&&!ue.__r++||qe!=v.debounceRendering)&&((qe=v.debounceRendering)||Ke)(ue)}function ue(){try{for(var e,t=1;F.length;)F.length>t&&F.sort(Ve),e=F.shift(),t=F.length,Wt(e)}finally{F.length=ue.__r=0}}function Xe(e,t,n,o,s,r,i,c,_,a,u){var p,l,m,b,k,f,g=o&&o.__k||ce,y=t.length;for(_=Ft(n,t,g,_,y),p=0;p<y;p++)(m=n.__k[p])!=null&&(l=m.__i!=-1&&g[m.__i]||le,m.__i=p,f=Ee(e,m,l,s,r,i,c,_,a,u),b=m.__e,m.ref&&l.ref!=m.ref&&(l.ref&&Pe(l.ref,null,m),u.push(m.ref,m.__c||b,m)),k==null&&b!=null&&(k=b),4&m.__u?(_=Ye(m,_,e),l.__e&&(l.__e=null)):typeof m.type=="function"&&f!==void 0?_=f:b&&(_=b.nextSibling),m.__u&=-7);return n.__e=k,_}function Ft(e,t,n,o,s){var r,i,c,_,a,u=n.length,p=u,l=0;for(e.__k=new Array(s),r=0;r<s;r++)(i=t[r])!=null&&typeof i!="boolean"&&typeof i!="function"?(typeof i=="string"||typeof i=="number"||typeof i=="bigint"||i.constructor==String?i=e.__k[r]=ae(null,i,null,null,null):pe(i)?i=e.__k[r]=ae(me,{children:i},null,null,null):i.constructor===void 0&&i.__b>0?i=e.__k[r]=ae(i.type,i.props,i.key,i.ref?i.ref:null,i.__v):e.__k[r]=i,_=r+l,i.__=e,i.__b=e.__b+1,c=null,(a=i.__i=qt(i,n,_,p))!=-1&&(p--,(c=n[a])&&(c.__u|=2)),c==null||c.__v==null?(a==-1&&(s>u?l--:s<u&&l++),typeof i.type!="function"&&(i.__u|=4)):a!=_&&(a==_-1?l--:a==_+1?l++:(a>_?l--:l++,i.__u|=4))):e.__k[r]=null;if(p)for(r=0;r<u;r++)(c=n[r])!=null&&(2&c.__u)==0&&(c.__e==o&&(o=O(c)),tt(c,c));return o}function Ye(e,t,n){var o,s;if(typeof e.type=="function"){for(o=e.__k,s=0;o&&s<o.length;s++)o[s]&&(o[s].__=e,t=Ye(o[s],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=O(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function qt(e,t,n,o){var s,r,i,c=e.key,_=e.type,a=t[n],u=a!=null&&(2&a.__u)==0;if(a===null&&c==null||u&&c==a.key&&_==a.type)return n;if(o>(u?1:0)){for(s=n-1,r=n+1;s>=0||r<t.length;)if((a=t[i=s>=0?s--:r++])!=null&&(2&a.__u)==0&&c==a.key&&_==a.type)return i}return-1}function je(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||Ht.test(t)?n:n+"px"}function se(e,t,n,o,s){var r,i;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||je(e.style,t,"");if(n)for(t in n)o&&n[t]==o[t]||je(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")r=t!=(t=t.replace(ze,"$1")),i=t.toLowerCase(),t=i in e||t=="onFocusOut"||t=="onFocusIn"?i.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+r]=n,n?o?n[X]=o[X]:(n[X]=ke,e.addEventListener(t,r?we:ve,r)):e.removeEventListener(t,r?we:ve,r);else{if(s=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function Ge(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[ie]==null)t[ie]=ke++;else if(t[ie]<n[X])return;return n(v.event?v.event(t):t)}}}function Ee(e,t,n,o,s,r,i,c,_,a){var u,p,l,m,b,k,f,g,y,D,z,q,J,Fe,re,ge,I=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(_=!!(32&n.__u),r=[c=t.__e=n.__e]),(u=v.__b)&&u(t);e:if(typeof I=="function"){p=i.length;try{if(y=t.props,D=I.prototype&&I.prototype.render,z=(u=I.contextType)&&o[u.__c],q=u?z?z.props.value:u.__:o,n.__c?g=(l=t.__c=n.__c).__=l.__E:(D?t.__c=l=new I(y,q):(t.__c=l=new Y(y,q),l.constructor=I,l.render=jt),z&&z.sub(l),l.state||(l.state={}),l.__n=o,m=l.__d=!0,l.__h=[],l._sb=[]),D&&l.__s==null&&(l.__s=l.state),D&&I.getDerivedStateFromProps!=null&&(l.__s==l.state&&(l.__s=L({},l.__s)),L(l.__s,I.getDerivedStateFromProps(y,l.__s))),b=l.props,k=l.state,l.__v=t,m)D&&I.getDerivedStateFromProps==null&&l.componentWillMount!=null&&l.componentWillMount(),D&&l.componentDidMount!=null&&l.__h.push(l.componentDidMount);else{if(D&&I.getDerivedStateFromProps==null&&y!==b&&l.componentWillReceiveProps!=null&&l.componentWillReceiveProps(y,q),t.__v==n.__v||!l.__e&&l.shouldComponentUpdate!=null&&l.shouldComponentUpdate(y,l.__s,q)===!1){t.__v!=n.__v&&(l.props=y,l.state=l.__s,l.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(B){B&&(B.__=t)}),ce.push.apply(l.__h,l._sb),l._sb=[],l.__h.length&&i.push(l),c=O(n);break e}l.componentWillUpdate!=null&&l.componentWillUpdate(y,l.__s,q),D&&l.componentDidUpdate!=null&&l.__h.push(function(){l.componentDidUpdate(b,k,f)})}if(l.context=q,l.props=y,l.__P=e,l.__e=!1,J=v.__r,Fe=0,D)l.state=l.__s,l.__d=!1,J&&J(t),u=l.render(l.props,l.state,l.context),ce.push.apply(l.__h,l._sb),l._sb=[];else do l.__d=!1,J&&J(t),u=l.render(l.props,l.state,l.context),l.state=l.__s;while(l.__d&&++Fe<25);l.state=l.__s,l.getChildContext!=null&&(o=L(L({},o),l.getChildContext())),D&&!m&&l.getSnapshotBeforeUpdate!=null&&(f=l.getSnapshotBeforeUpdate(b,k)),re=u!=null&&u.type===me&&u.key==null?et(u.props.children):u,c=Xe(e,pe(re)?re:[re],t,n,o,s,r,i,c,_,a),l.base=t.__e,t.__u&=-161,l.__h.length&&i.push(l),g&&(l.__E=l.__=null)}catch(B){if(i.length=p,t.__v=null,_||r!=null){if(B.then){for(t.__u|=_?160:128;c&&c.nodeType==8&&c.nextSibling;)c=c.nextSibling;r!=null&&(r[r.indexOf(c)]=null),t.__e=c}else if(r!=null)for(ge=r.length;ge--;)Se(r[ge])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),B.then||Qe(t),v.__e(B,t,n)}}else r==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):c=t.__e=Ot(n.__e,t,n,o,s,r,i,_,a);return(u=v.diffed)&&u(t),128&t.__u?void 0:c}function Qe(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(Qe))}function Ze(e,t,n){for(var o=0;o<n.length;o++)Pe(n[o],n[++o],n[++o]);v.__c&&v.__c(t,e),e.some(function(s){try{e=s.__h,s.__h=[],e.some(function(r){r.call(s)})}catch(r){v.__e(r,s.__v)}})}function et(e){return typeof e!="object"||e==null||e.__b>0?e:pe(e)?e.map(et):e.constructor!==void 0?null:L({},e)}function Ot(e,t,n,o,s,r,i,c,_){var a,u,p,l,m,b,k,f=n.props||le,g=t.props,y=t.type;if(y=="svg"?s="http://www.w3.org/2000/svg":y=="math"?s="http://www.w3.org/1998/Math/MathML":s||(s="http://www.w3.org/1999/xhtml"),r!=null){for(a=0;a<r.length;a++)if((m=r[a])&&"setAttribute"in m==!!y&&(y?m.localName==y:m.nodeType==3)){e=m,r[a]=null;break}}if(e==null){if(y==null)return document.createTextNode(g);e=document.createElementNS(s,y,g.is&&g),c&&(v.__m&&v.__m(t,r),c=!1),r=null}if(y==null)f===g||c&&e.data==g||(e.data=g);else{if(r=y=="textarea"&&g.defaultValue!=null?null:r&&_e.call(e.childNodes),!c&&r!=null)for(f={},a=0;a<e.attributes.length;a++)f[(m=e.attributes[a]).name]=m.value;for(a in f)m=f[a],a=="dangerouslySetInnerHTML"?p=m:a=="children"||a in g||a=="value"&&"defaultValue"in g||a=="checked"&&"defaultChecked"in g||se(e,a,null,m,s);for(a in g)m=g[a],a=="children"?l=m:a=="dangerouslySetInnerHTML"?u=m:a=="value"?b=m:a=="checked"?k=m:c&&typeof m!="function"||f[a]===m||se(e,a,m,f[a],s);if(u)c||p&&(u.__html==p.__html||u.__html==e.innerHTML)||(e.innerHTML=u.__html),t.__k=[];else if(p&&(e.innerHTML=""),Xe(t.type=="template"?e.content:e,pe(l)?l:[l],t,n,o,y=="foreignObject"?"http://www.w3.org/1999/xhtml":s,r,i,r?r[0]:n.__k&&O(n,0),c,_),r!=null)for(a=r.length;a--;)Se(r[a]);c&&y!="textarea"||(a="value",y=="progress"&&b==null?e.removeAttribute("value"):b!=null&&(b!==e[a]||y=="progress"&&!b||y=="option"&&b!=f[a])&&se(e,a,b,f[a],s),a="checked",k!=null&&k!=e[a]&&se(e,a,k,f[a],s))}return e}function Pe(e,t,n){try{if(typeof e=="function"){var o=typeof e.__u=="function";o&&e.__u(),o&&t==null||(e.__u=e(t))}else e.current=t}catch(s){v.__e(s,n)}}function tt(e,t,n){var o,s;if(v.unmount&&v.unmount(e),(o=e.ref)&&(o.current&&o.current!=e.__e||Pe(o,null,t)),(o=e.__c)!=null){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(r){v.__e(r,t)}o.base=o.__P=o.__n=null}if(o=e.__k)for(s=0;s<o.length;s++)o[s]&&tt(o[s],t,n||typeof e.type!="function");n||Se(e.__e),e.__c=e.__=e.__e=void 0}function jt(e,t,n){return this.constructor(e,n)}function Ce(e,t,n){var o,s,r,i;t==document&&(t=document.documentElement),v.__&&v.__(e,t),s=(o=typeof n=="function")?null:n&&n.__k||t.__k,r=[],i=[],Ee(t,e=(!o&&n||t).__k=de(me,null,[e]),s||le,le,t.namespaceURI,!o&&n?[n]:s?null:t.firstChild?_e.call(t.childNodes):null,r,!o&&n?n:s?s.__e:t.firstChild,o,i),Ze(r,e,i),e.props.children=null}_e=ce.slice,v={__e:function(e,t,n,o){for(var s,r,i;t=t.__;)if((s=t.__c)&&!s.__)try{if((r=s.constructor)&&r.getDerivedStateFromError!=null&&(s.setState(r.getDerivedStateFromError(e)),i=s.__d),s.componentDidCatch!=null&&(s.componentDidCatch(e,o||{}),i=s.__d),i)return s.__E=s}catch(c){e=c}throw e}},Be=0,Mt=function(e){return e!=null&&e.constructor===void 0},Y.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=L({},this.state),typeof e=="function"&&(e=e(L({},n),this.props)),e&&L(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),Oe(this))},Y.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),Oe(this))},Y.prototype.render=me,F=[],Ke=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,Ve=function(e,t){return e.__v.__b-t.__v.__b},ue.__r=0,ye=Math.random().toString(8),ie="__d"+ye,X="__a"+ye,ze=/(PointerCapture)$|Capture$/i,ke=0,ve=Ge(!1),we=Ge(!0),Lt=0;var H={roles:new Set,perms:new Set,users:new Set},fe=new Set,Re=!1;function Te(e,t){return typeof t!="string"||t===""||e.has(t)?!1:(e.size>=5e3&&e.delete(e.values().next().value),e.add(t),!0)}function nt(e){let t=!1;for(let n of Array.isArray(e)?e:[e])!n||typeof n!="object"||(t=Te(H.roles,n.role)|t,t=Te(H.perms,n.name)|t,t=Te(H.users,n.user)|t);t&&!Re&&(Re=!0,queueMicrotask(()=>{Re=!1,fe.forEach(n=>n())}))}function ot(e,t){H[e].delete(t)&&fe.forEach(n=>n())}function rt(e){return fe.add(e),()=>fe.delete(e)}var xe="rolegate.console.key",Gt=location.pathname.replace(/console\/[^/]*$/,""),Ae=()=>sessionStorage.getItem(xe)||"",st=e=>sessionStorage.setItem(xe,e),Ue=()=>sessionStorage.removeItem(xe),Q=class extends Error{constructor(t,n){super(n),this.status=t}},it=()=>{},at=e=>{it=e},$=encodeURIComponent;async function T(e,t,{query:n,body:o,key:s}={}){if(t.split("/").some(u=>u==="."||u===".."))throw new Q(400,'The names "." and ".." cannot be sent in a URL path from a browser (it would reach another route); use rolegatectl or the REST API');let r=new URL(Gt+"api/"+t,location.origin);for(let[u,p]of Object.entries(n||{}))p!=null&&p!==""&&r.searchParams.set(u,String(p));let i={Authorization:"Bearer "+(s??Ae()),Accept:"application/json"},c={method:e,headers:i,credentials:"omit",cache:"no-store",referrerPolicy:"no-referrer"};o!==void 0&&(i["Content-Type"]="application/json",c.body=JSON.stringify(o));let _;try{_=await fetch(r,c)}catch(u){throw new Q(0,"The server cannot be reached ("+u.message+")")}let a=null;try{a=await _.json()}catch{}if(!_.ok||!a||a.success!==!0){let u=a&&a.message?a.message:_.status+" "+_.statusText;throw a&&a.error&&a.error!==a.message&&(u+=": "+a.error),_.status===401&&s===void 0&&it(u),new Q(_.status,u)}return a.data}async function w(e,t){let n=await T("GET",e,{query:t});return nt(n),n}var ct=function(e,t,n,o){var s;t[0]=0;for(var r=1;r<t.length;r++){var i=t[r++],c=t[r]?(t[0]|=i?1:2,n[t[r++]]):t[++r];i===3?o[0]=c:i===4?o[1]=Object.assign(o[1]||{},c):i===5?(o[1]=o[1]||{})[t[++r]]=c:i===6?o[1][t[++r]]+=c+"":i?(s=e.apply(c,ct(e,c,n,["",null])),o.push(s),c[0]?t[0]|=2:(t[r-2]=0,t[r]=s)):o.push(c)}return o},lt=new Map;function ut(e){var t=lt.get(this);return t||(t=new Map,lt.set(this,t)),(t=ct(this,t.get(e)||(t.set(e,t=(function(n){for(var o,s,r=1,i="",c="",_=[0],a=function(l){r===1&&(l||(i=i.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?_.push(0,l,i):r===3&&(l||i)?(_.push(3,l,i),r=2):r===2&&i==="..."&&l?_.push(4,l,0):r===2&&i&&!l?_.push(5,0,!0,i):r>=5&&((i||!l&&r===5)&&(_.push(r,0,i,s),r=6),l&&(_.push(r,l,0,s),r=6)),i=""},u=0;u<n.length;u++){u&&(r===1&&a(),a(u));for(var p=0;p<n[u].length;p++)o=n[u][p],r===1?o==="<"?(a(),_=[_],r=3):i+=o:r===4?i==="--"&&o===">"?(r=1,i=""):i=o+i[0]:c?o===c?c="":i+=o:o==='"'||o==="'"?c=o:o===">"?(a(),r=1):r&&(o==="="?(r=5,s=i,i=""):o==="/"&&(r<5||n[u][p+1]===">")?(a(),r===3&&(_=_[0]),r=_,(_=_[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(a(),r=2):i+=o),r===3&&i==="!--"&&(r=4,_=_[0])}return a(),_})(e)),t),arguments,[])).length>1?t:t[0]}var d=ut.bind(de);var Z,S,Ne,_t,ee=0,gt=[],E=v,pt=E.__b,dt=E.__r,mt=E.diffed,ft=E.__c,ht=E.unmount,$t=E.__;function Ie(e,t){E.__h&&E.__h(S,e,ee||t),ee=0;var n=S.__H||(S.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function h(e){return ee=1,Bt(kt,e)}function Bt(e,t,n){var o=Ie(Z++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):kt(void 0,t),function(c){var _=o.__N?o.__N[0]:o.__[0],a=o.t(_,c);_!==a&&(o.__N=[a,o.__[1]],o.__c.setState({}))}],o.__c=S,!S.__f)){var s=function(c,_,a){if(!o.__c.__H)return!0;var u=!1,p=o.__c.props!==c;if(o.__c.__H.__.some(function(m){if(m.__N){u=!0;var b=m.__[0];m.__=m.__N,m.__N=void 0,b!==m.__[0]&&(p=!0)}}),r){var l=r.call(this,c,_,a);return u?l||p:l}return!u||p};S.__f=!0;var r=S.shouldComponentUpdate,i=S.componentWillUpdate;S.componentWillUpdate=function(c,_,a){if(this.__e){var u=r;r=void 0,s(c,_,a),r=u}i&&i.call(this,c,_,a)},S.shouldComponentUpdate=s}return o.__N||o.__}function U(e,t){var n=Ie(Z++,3);!E.__s&&wt(n.__H,t)&&(n.__=e,n.u=t,S.__H.__h.push(n))}function K(e){return ee=5,yt(function(){return{current:e}},[])}function yt(e,t){var n=Ie(Z++,7);return wt(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function vt(e,t){return ee=8,yt(function(){return e},t)}function Kt(){for(var e;e=gt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(he),t.__h.some(De),t.__h=[]}catch(n){t.__h=[],E.__e(n,e.__v)}}}E.__b=function(e){S=null,pt&&pt(e)},E.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),$t&&$t(e,t)},E.__r=function(e){dt&&dt(e),Z=0;var t=(S=e.__c).__H;t&&(Ne===S?(t.__h=[],S.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(he),t.__h.some(De),t.__h=[],Z=0)),Ne=S},E.diffed=function(e){mt&&mt(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(gt.push(t)!==1&&_t===E.requestAnimationFrame||((_t=E.requestAnimationFrame)||Vt)(Kt)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),Ne=S=null},E.__c=function(e,t){t.some(function(n){try{n.__h.some(he),n.__h=n.__h.filter(function(o){return!o.__||De(o)})}catch(o){t.some(function(s){s.__h&&(s.__h=[])}),t=[],E.__e(o,n.__v)}}),ft&&ft(e,t)},E.unmount=function(e){ht&&ht(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(o){try{he(o)}catch(s){t=s}}),n.__H=void 0,t&&E.__e(t,n.__v))};var bt=typeof requestAnimationFrame=="function";function Vt(e){var t,n=function(){clearTimeout(o),bt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);bt&&(t=requestAnimationFrame(n))}function he(e){var t=S,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),S=t}function De(e){var t=S;e.__c=e.__(),S=t}function wt(e,t){return!e||e.length!==t.length||t.some(function(n,o){return n!==e[o]})}function kt(e,t){return typeof t=="function"?t(e):t}var C=50;function x(e,t,n,o=!0){let s=JSON.stringify(n),[r,i]=h({key:s,cursors:[void 0]}),c=r.key===s?r.cursors:[void 0],[_,a]=h({items:[],loading:!0,error:""}),[u,p]=h(0),l=c[c.length-1];U(()=>{if(!o){a({items:[],loading:!1,error:""});return}let b=!0;return a(k=>({...k,loading:!0})),e(l).then(k=>b&&a({items:k||[],loading:!1,error:""}),k=>b&&a({items:[],loading:!1,error:k.message})),()=>{b=!1}},[s,l,u,o]);let m=_.items;return{..._,page:c.length,hasNext:m.length>=C,hasPrev:c.length>1,next:()=>m.length&&i({key:s,cursors:[...c,t(m[m.length-1])]}),prev:()=>i({key:s,cursors:c.slice(0,-1)}),reload:()=>p(b=>b+1)}}function zt({p:e,label:t}){return!e.hasPrev&&!e.hasNext?null:d`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function W({text:e,id:t}){return e?d`<p class="error" role="alert" id=${t}>${e}</p>`:null}function P({id:e,label:t,value:n,onInput:o,required:s,placeholder:r,type:i,hint:c,list:_,note:a}){let u=[c&&e+"-hint",a&&e+"-new"].filter(Boolean).join(" ");return d`<div class="field">
    <label for=${e}>${t}${s?"":d` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${i||"text"} value=${n} required=${s} placeholder=${r}
      list=${_} autocomplete="off" spellcheck=${!1} aria-describedby=${u||void 0}
      onInput=${p=>o(p.currentTarget.value)} />
    ${c&&d`<small id=${e+"-hint"}>${c}</small>`}
    ${a&&d`<small class="note" id=${e+"-new"}>${a}</small>`}
  </div>`}var ne="known-roles",j="known-perms",V="known-users";function St(){let[,e]=h(0);U(()=>rt(()=>e(n=>n+1)),[]);let t=n=>[...n].sort().map(o=>d`<option key=${o} value=${o} />`);return d`<datalist id=${ne}>${t(H.roles)}</datalist>
    <datalist id=${j}>${t(H.perms)}</datalist>
    <datalist id=${V}>${t(H.users)}</datalist>`}function oe(e,t){let n=t.trim();if(!n||H[e].has(n))return"";let o={perms:"permission",roles:"role",users:"user"}[e];return"\u201C"+n+"\u201D is not a "+o+" name seen so far: check the spelling."}var Me={owner:"",text:"",kind:""},Le=new Set;function te(e,t,n="ok"){Me={owner:e,text:t,kind:n},Le.forEach(o=>o())}var Et=()=>te("","","");function N({owner:e}){let[,t]=h(0);U(()=>{let r=()=>t(i=>i+1);return Le.add(r),()=>Le.delete(r)},[]);let n=Me.owner===e?Me:null,o=n?n.text:"",s=n?n.kind:"";return d`<p id=${e+"-status"} class=${"msg "+s} role=${s==="error"?"alert":"status"}
    aria-live=${s==="error"?"assertive":"polite"}>${o}</p>`}function M(e){let[t,n]=h(!1),[o,s]=h(""),r=vt(async i=>{n(!0),s("");try{let c=await i();return e&&typeof c=="string"&&te(e,c,"ok"),c}catch(c){e?te(e,c.message,"error"):s(c.message);return}finally{n(!1)}},[e]);return{busy:t,error:o,run:r,setError:s}}function A({p:e,label:t,empty:n,render:o,id:s}){return d`<div class="list" id=${s} aria-busy=${e.loading}>
    <${W} text=${e.error} />
    ${!e.loading&&!e.error&&e.items.length===0&&d`<p class="empty">${n}</p>`}
    ${e.items.length>0&&d`<ul aria-label=${t}>${e.items.map(o)}</ul>`}
    <${zt} p=${e} label=${t} />
  </div>`}var R=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function Pt(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"";return"member of "+e.membership+" "+t+n+"; granted to "+e.granted_by}function Ct(){let e=x(u=>w("roles",{limit:C,after:u}),u=>u.role,[]),[t,n]=h(""),[o,s]=h(""),[r,i]=h(""),c=K(null);U(()=>{!r&&c.current&&c.current.isConnected&&c.current.focus()},[r]);let _=M("new-role");return d`
    <section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${u=>{u.preventDefault(),_.run(async()=>{let l="Role "+(await T("POST","role/"+$(t),{body:o?{description:o}:void 0})).role+" created.";return n(""),s(""),e.reload(),l})}}>
        <${P} id="new-role" label="Role name" value=${t} onInput=${n} required />
        <${P} id="new-role-desc" label="Description" value=${o} onInput=${s} />
        <button type="submit" disabled=${_.busy}>Create role</button>
      </form>
      <${N} owner="new-role" />
    </section>
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${N} owner="roles" />
      <${A} p=${e} label="Roles" id="roles-list" empty="No roles yet." render=${u=>d`
        <li key=${u.role} class="row">
          <a href=${R("role",u.role)}>${u.role}</a>
          <span class="desc">${u.description}</span>
          <button type="button" class="danger" onClick=${p=>{c.current=p.currentTarget,i(u.role)}}
            aria-label=${"Delete role "+u.role}>Delete</button>
        </li>`} />
    </section>
    ${r&&d`<${Jt} role=${r} onClose=${u=>{i(""),u&&(ot("roles",r),te("roles",u),e.reload(),c.current=null)}} />`}`}var $e=100;function Jt({role:e,onClose:t}){let n=K(),[o,s]=h(null),r=M();U(()=>{let a=n.current;a.showModal();let u=()=>t("");return a.addEventListener("cancel",u),r.run(async()=>{let p="role/"+$(e),[l,m,b,k,f]=await Promise.all([w(p),w("members/"+$(e),{limit:$e}),w("role_permissions/"+$(e),{limit:$e}),w(p+"/inherits",{limit:$e}),w(p+"/inherited_by",{limit:$e})]);s({counts:l.counts,members:m.map(g=>g.user),perms:b.map(g=>g.name),parents:k.map(g=>g.role),children:f.map(g=>g.role)})}),()=>a.removeEventListener("cancel",u)},[e]);let i=()=>r.run(async()=>{let a=await T("DELETE","role/"+$(e)),u=o.counts;t(a.deleted?"Role "+e+" deleted, with "+G(u.members+u.scoped_members,"membership")+" and "+G(u.permissions,"permission")+".":"Role "+e+" was already gone.")}),c=(a,u)=>u===0?"none":a.join(", ")+(u>a.length?" and "+(u-a.length)+" more":""),_=o&&o.counts;return d`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${W} text=${r.error} />
    ${o?d`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${G(_.members,"global membership")}</strong>: ${c(o.members,_.members)}</li>
        <li><strong>${G(_.scoped_members,"membership")} in a scope</strong>${_.scoped_members?" (listed on the Members page)":""}</li>
        <li><strong>${G(_.permissions,"permission")}</strong>: ${c(o.perms,_.permissions)}</li>
        <li><strong>${G(_.parents,"parent link")}</strong> (it inherits from): ${c(o.parents,_.parents)}</li>
        <li><strong>${G(_.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${c(o.children,_.children)}</li>
      </ul>
      <p>Re-creating the role brings none of this back.</p></div>`:d`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${i} disabled=${!o||r.busy}>Delete ${e}</button>
      <button type="button" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}function G(e,t){return e+" "+t+(e===1?"":"s")}function Rt({role:e}){let[t,n]=h(0),[o,s]=h({detail:null,error:""});U(()=>{let a=!0;return w("role/"+$(e)).then(u=>a&&s({detail:u,error:""}),u=>a&&s({detail:null,error:u.status===404?"Role \u201C"+e+"\u201D not found: there is no role of that name (create it on the Roles page).":u.message})),()=>{a=!1}},[e,t]);let r=()=>n(a=>a+1),i=o.detail!==null,c=o.detail?o.detail.counts:null,_={role:e,tick:t,changed:r,ok:i};return d`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${o.detail?o.detail.description||"No description.":""}</p>
    <${W} text=${o.error} id="role-error" />
    <fieldset class="plain" disabled=${!i}>
      <legend class="visually-hidden">Role ${e}</legend>
      <div class="cols">
        <${Xt} ...${_} />
        <${Yt} ...${_} />
      </div>
      ${i&&d`<${Qt} ...${_} count=${c.children} />
        <${Zt} ...${_} inherits=${c.parents>0} />`}
      <${tn} ...${_} />
    </fieldset>`}function He({id:e,label:t,button:n,add:o,extra:s,owner:r,list:i,kind:c}){let[_,a]=h(""),u=M(r);return d`<form class="inline" onSubmit=${l=>{l.preventDefault(),u.run(async()=>{let m=await o(_);return a(""),m})}}>
      <${P} id=${e} label=${t} value=${_} onInput=${a} required list=${i}
        note=${c?oe(c,_):""} />
      ${s}
      <button type="submit" disabled=${u.busy}>${n}</button>
    </form>`}function We({label:e,remove:t,owner:n}){let o=M(n);return d`<button type="button" class="danger" aria-label=${e} disabled=${o.busy}
    onClick=${()=>o.run(t)}>Remove</button>`}function Xt({role:e,tick:t,changed:n,ok:o}){let s=x(i=>w("role_permissions/"+$(e),{limit:C,after:i}),i=>i.name,[e,t],o),r=i=>"permission/"+$(e)+"/"+$(i);return d`<section aria-labelledby="grants-h">
    <h2 id="grants-h">Permissions granted to ${e}</h2>
    <${He} id="grant-name" label="Permission" button="Grant" owner="grants" list=${j} kind="perms" add=${async i=>(await T("POST",r(i)),n(),"Granted "+i+" to "+e+".")} />
    <${N} owner="grants" />
    ${o&&d`<${A} p=${s} label="Granted permissions" id="grants-list" empty="No permissions granted directly." render=${i=>d`
      <li key=${i.name} class="row"><a href=${R("whocan",i.name)}>${i.name}</a>
        <${We} owner="grants" label=${"Remove permission "+i.name} remove=${async()=>(await T("DELETE",r(i.name)),n(),"Removed "+i.name+" from "+e+".")} /></li>`} />`}
  </section>`}function Yt({role:e,tick:t,changed:n,ok:o}){let s=x(i=>w("role/"+$(e)+"/inherits",{limit:C,after:i}),i=>i.role,[e,t],o),r=i=>"role/"+$(e)+"/inherits/"+$(i);return d`<section aria-labelledby="parents-h">
    <h2 id="parents-h">${e} inherits from</h2>
    <${He} id="parent-name" label="Parent role" button="Inherit" owner="parents" list=${ne} kind="roles" add=${async i=>(await T("POST",r(i)),n(),e+" now inherits from "+i+".")} />
    <${N} owner="parents" />
    ${o&&d`<${A} p=${s} label="Parent roles" id="parents-list" empty="Inherits from no role." render=${i=>d`
      <li key=${i.role} class="row"><a href=${R("role",i.role)}>${i.role}</a>
        <${We} owner="parents" label=${"Stop inheriting from "+i.role} remove=${async()=>(await T("DELETE",r(i.role)),n(),e+" no longer inherits from "+i.role+".")} /></li>`} />`}
  </section>`}function Tt({id:e,title:t,children:n,onToggle:o}){return d`<section aria-labelledby=${e+"-h"}>
    <details id=${e} onToggle=${s=>o(s.currentTarget.open)}>
      <summary><h2 id=${e+"-h"}>${t}</h2></summary>
      ${n}
    </details>
  </section>`}function Qt({role:e,tick:t,ok:n,count:o}){let[s,r]=h(!1),i=x(c=>w("role/"+$(e)+"/inherited_by",{limit:C,after:c}),c=>c.role,[e,t],n&&s&&o>0);return d`<${Tt} id="children" title=${"Roles inheriting from "+e+" ("+o+")"} onToggle=${r}>
    ${o===0?d`<p class="empty" id="children-list">None.</p>`:d`<${A} p=${i} label="Roles inheriting from it" id="children-list" empty="None." render=${c=>d`
      <li key=${c.role} class="row"><a href=${R("role",c.role)}>${c.role}</a></li>`} />`}
  <//>`}function Zt({role:e,tick:t,ok:n,inherits:o}){let[s,r]=h(!1),i=x(c=>w("role_permissions/"+$(e),{limit:C,after:c,effective:"true"}),c=>c.name,[e,t],n&&s);return d`<${Tt} id="effective" title=${"Effective permissions of "+e} onToggle=${r}>
    <${A} p=${i} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${c=>d`
      <li key=${c.name} class="row wrap"><span class="name">${c.name}</span>
        ${o?d`<${en} role=${e} name=${c.name} />`:d`<span class="src">granted directly</span>`}</li>`} />
  <//>`}function en({role:e,name:t}){let[n,o]=h(""),s=async()=>{try{let r=await w("permission/"+$(e)+"/"+$(t),{explain:"true"}),i=r.chain||[];o(r.result?i.length<=1?"granted directly":"inherited from "+i[i.length-1]+" ("+i.join(" \u2192 ")+")":"no longer held")}catch(r){o(r.message)}};return n?d`<span class="src" role="status">${n}</span>`:d`<button type="button" aria-label=${"Where does "+t+" come from?"} onClick=${s}>Where from?</button>`}function tn({role:e,tick:t,changed:n,ok:o}){let[s,r]=h(""),[i,c]=h(""),_=x(p=>w("members/"+$(e),{limit:C,after:p,scope:i}),p=>p.user,[e,t,i],o),a=p=>"membership/"+$(p)+"/"+$(e),u=p=>p?" of "+e+" in scope "+p:" global member of "+e;return d`<section aria-labelledby="members-h">
    <h2 id="members-h">Members of ${e}</h2>
    <${He} id="member-user" label="User" button="Add member" owner="members" list=${V} add=${async p=>(await T("POST",a(p),{query:{scope:s}}),n(),p+" is now a"+(s?" member":"")+u(s)+".")} extra=${d`<${P} id="member-scope" label="Scope" value=${s} onInput=${r}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <${N} owner="members" />
    <div class="inline">
      <p class="hint" id="members-shown">Showing ${i?"members in scope \u201C"+i+"\u201D (global ones included)":"global members"}.</p>
      <button type="button" id="show-scope" onClick=${()=>c(s.trim())}>${s.trim()?"Show members in scope \u201C"+s.trim()+"\u201D":"Show global members"}</button>
    </div>
    ${o&&d`<${A} p=${_} label="Members" id="members-list" empty="No members." render=${p=>d`
      <li key=${p.user+"/"+(p.scope||"")} class="row"><a href=${R("user",p.user)}>${p.user}</a>
        <span class=${p.scope?"scope":"scope global"}>${p.scope?"in scope "+p.scope:"global"}</span>
        <${We} owner="members" label=${"Remove "+p.user+(p.scope?" from scope "+p.scope:" (global member)")}
          remove=${async()=>{let l=await T("DELETE",a(p.user),{query:{scope:p.scope||void 0}});return n(),l.deleted?p.user+" is no longer a"+(p.scope?" member":"")+u(p.scope)+".":p.user+" was already not a"+(p.scope?" member":"")+u(p.scope)+"."}} /></li>`} />`}
  </section>`}function be({go:e,initial:t}){let[n,o]=h(t||"");return d`<form class="inline" onSubmit=${s=>{s.preventDefault(),n&&e(R("user",n))}}>
    <${P} id="lookup-user" label="User" value=${n} onInput=${o} required list=${V} />
    <button type="submit">Show user</button>
  </form>`}async function xt(e,t,n){let o=await w("has_permission/"+$(e)+"/"+$(t),{scope:n,explain:"true"});return o.result?e+" can "+t+": yes, "+Pt(o.grant)+".":e+" cannot "+t+(n?" in scope "+n:"")+"."}function At({user:e,go:t}){let[n,o]=h(""),[s,r]=h(""),i=x(f=>w("user_roles/"+$(e),{limit:C,after:f,scope:s}),f=>f.role,[e,s]),c=x(f=>w("user_permissions/"+$(e),{limit:C,after:f,scope:s}),f=>f.name,[e,s]),[_,a]=h(""),[u,p]=h(""),[l,m]=h({}),b=M("check");return d`
    <${be} go=${t} initial=${e} />
    <form class="inline" onSubmit=${f=>{f.preventDefault(),r(n)}}>
      <${P} id="user-scope" label="Scope" value=${n} onInput=${o} hint="Empty: global memberships only." />
      <button type="submit">Apply scope</button>
    </form>
    <section aria-labelledby="check-h">
      <h2 id="check-h">Can ${e} …?</h2>
      <form class="inline" onSubmit=${f=>{f.preventDefault(),p(""),b.run(async()=>{p(await xt(e,_,s))})}}>
        <${P} id="check-perm" label="Permission" value=${_} onInput=${a} required list=${j}
          note=${oe("perms",_)} />
        <button type="submit" disabled=${b.busy}>Check</button>
      </form>
      <${N} owner="check" />
      <p id="check-result" role="status" class=${u.includes(": yes")?"yes":"no"}>${u}</p>
    </section>
    <div class="cols">
      <section aria-labelledby="uroles-h">
        <h2 id="uroles-h">Roles${s?" in scope "+s:""}</h2>
        <${A} p=${i} label="Roles of the user" id="user-roles" empty="Member of no role." render=${f=>d`
          <li key=${f.role+"/"+(f.scope||"")} class="row"><a href=${R("role",f.role)}>${f.role}</a>
            ${s&&d`<span class=${f.scope?"scope":"scope global"}>${f.scope?"in scope "+f.scope:"global"}</span>`}</li>`} />
      </section>
      <section aria-labelledby="uperms-h">
        <h2 id="uperms-h">Effective permissions</h2>
        <${A} p=${c} label="Effective permissions of the user" id="user-perms" empty="No permissions." render=${f=>d`
          <li key=${f.name} class="row wrap"><span class="name">${f.name}</span>
            <button type="button" aria-label=${"Why can "+e+" "+f.name+"?"}
              onClick=${async()=>{let g;try{g=await xt(e,f.name,s)}catch(y){g=y.message}m({...l,[f.name]:g})}}>Why?</button>
            ${l[f.name]&&d`<span class="why" role="status">${l[f.name]}</span>`}</li>`} />
      </section>
    </div>`}function Ut({go:e}){let t=x(p=>w("scoped_memberships",{limit:C,after:p}),p=>p.scope+"/"+p.user+"/"+p.role,[]),[n,o]=h(""),[s,r]=h(""),[i,c]=h(""),_=M("add-membership"),a=M("scoped");return d`
    <section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${p=>{p.preventDefault(),_.run(async()=>{await T("POST","membership/"+$(n)+"/"+$(s),{query:{scope:i}});let l=n+" is now a member of "+s+(i?" in scope "+i:" globally")+".";return o(""),t.reload(),l})}}>
        <${P} id="m-user" label="User" value=${n} onInput=${o} required list=${V} />
        <${P} id="m-role" label="Role" value=${s} onInput=${r} required list=${ne} note=${oe("roles",s)} />
        <${P} id="m-scope" label="Scope" value=${i} onInput=${c} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${_.busy}>Add membership</button>
      </form>
      <${N} owner="add-membership" />
    </section>
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${be} go=${e} />
      <p class="hint">Global members are listed on each role's page.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h">Memberships in one scope</h2>
      <${N} owner="scoped" />
      <${A} p=${t} label="Scoped memberships" id="scoped-list" empty="No scoped memberships." render=${p=>d`
        <li key=${p.scope+"/"+p.user+"/"+p.role} class="row">
          <span class="scope">${p.scope}</span>
          <span class="grow"><a href=${R("user",p.user)}>${p.user}</a> is a member of <a href=${R("role",p.role)}>${p.role}</a></span>
          <button type="button" class="danger" aria-label=${"Remove "+p.user+" from "+p.role+" in scope "+p.scope}
            onClick=${()=>a.run(async()=>(await T("DELETE","membership/"+$(p.user)+"/"+$(p.role),{query:{scope:p.scope}}),t.reload(),p.user+" is no longer a member of "+p.role+" in scope "+p.scope+"."))}>Remove</button></li>`} />
    </section>`}function Nt({name:e,scope:t,go:n}){let[o,s]=h(e||""),[r,i]=h(t||""),c=x(a=>e?w("which_users_can/"+$(e),{limit:C,after:a,scope:t}):Promise.resolve([]),a=>a.user,[e,t]),_=x(a=>e?w("which_roles_can/"+$(e),{limit:C,after:a}):Promise.resolve([]),a=>a.role,[e]);return d`
    <form class="inline" onSubmit=${a=>{a.preventDefault(),o&&n(r.trim()?R("whocan",o,r.trim()):R("whocan",o))}}>
      <${P} id="whocan-perm" label="Permission" value=${o} onInput=${s} required list=${j} />
      <${P} id="whocan-scope" label="Scope" value=${r} onInput=${i} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&d`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${t?" in scope "+t:""}</h2>
        <${A} p=${c} label="Users" id="whocan-users" empty="Nobody." render=${a=>d`
          <li key=${a.user} class="row"><a href=${R("user",a.user)}>${a.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}</h2>
        <${A} p=${_} label="Roles" id="whocan-roles" empty="No role." render=${a=>d`
          <li key=${a.role} class="row"><a href=${R("role",a.role)}>${a.role}</a></li>`} />
      </section>
    </div>`}`}var nn=["add_role","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","batch"];function Dt(){let[e,t]=h(""),[n,o]=h(""),s=x(r=>w("audit",{limit:C,before:r,action:n}),r=>r.id,[n]);return d`
    <form class="inline" onSubmit=${r=>{r.preventDefault(),o(e.trim())}}>
      <${P} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions"
        hint="Empty: every action." />
      <datalist id="audit-actions">${nn.map(r=>d`<option value=${r} />`)}</datalist>
      <button type="submit">Filter</button>
    </form>
    <${W} text=${s.error} />
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${s.loading}>
        <caption>Audit records, newest first${n?", action "+n:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Request</th></tr></thead>
        <tbody>${s.items.map(r=>d`<tr key=${r.id}>
          <td data-label="When"><time datetime=${r.at}>${r.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${r.action}</td><td data-label="Resource">${r.resource}</td>
          <td data-label="Outcome">${r.outcome}</td><td data-label="Request" class="mono">${r.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${!s.loading&&!s.error&&s.items.length===0&&d`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${s.prev} disabled=${!s.hasPrev}>Newer</button>
      <span>Page ${s.page}</span>
      <button type="button" onClick=${s.next} disabled=${!s.hasNext}>Older</button>
    </nav>`}function It(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||"",arg2:e[2]||""}}var on=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function rn({onIn:e,reason:t}){let[n,o]=h(""),[s,r]=h(t),[i,c]=h(!1);return d`<main class="signin" id="main">
    <h1>rolegate console</h1>
    <form onSubmit=${async a=>{a.preventDefault(),c(!0),r("");try{await T("GET","roles",{query:{limit:1},key:n.trim()}),st(n.trim()),e()}catch(u){r(u.message)}finally{c(!1)}}}>
      <${P} id="client-key" type="password" label="Client key" value=${n} onInput=${o} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). It stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${i}>Sign in</button>
    </form>
    <${W} text=${s} id="signin-error" />
  </main>`}function sn(){let[e,t]=h(!!Ae()),[n,o]=h(""),[s,r]=h(It()),i=K();if(U(()=>{let u=()=>{r(It()),Et()};return addEventListener("hashchange",u),at(p=>{Ue(),o(p),t(!1)}),()=>removeEventListener("hashchange",u)},[]),U(()=>{i.current&&i.current.focus()},[s.page,s.arg,e]),!e)return d`<${rn} reason=${n} onIn=${()=>{o(""),t(!0)}} />`;let c=u=>{location.hash=u},_,a;switch(s.page){case"role":_="Role "+s.arg,a=d`<${Rt} role=${s.arg} />`;break;case"members":_="Members",a=d`<${Ut} go=${c} />`;break;case"user":_=s.arg?"User "+s.arg:"Users",a=s.arg?d`<${At} user=${s.arg} go=${c} />`:d`<${be} go=${c} />`;break;case"whocan":_=s.arg?"Who can "+s.arg:"Who can",a=d`<${Nt} name=${s.arg} scope=${s.arg2} go=${c} />`;break;case"audit":_="Audit log",a=d`<${Dt} />`;break;default:_="Roles",a=d`<${Ct} />`}return document.title=_+" \xB7 rolegate console",d`
    <a class="skip" href="#main" onClick=${u=>{u.preventDefault(),i.current&&i.current.focus()}}>Skip to content</a>
    <header>
      <span class="brand">rolegate</span>
      <nav aria-label="Console">
        <ul>${on.map(([u,p])=>d`<li><a href=${"#/"+u} aria-current=${s.page===u?"page":void 0}>${p}</a></li>`)}</ul>
      </nav>
      <button type="button" class="signout" onClick=${()=>{Ue(),t(!1)}}>Sign out</button>
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${i}>${_}</h1>
      <div key=${s.page+"/"+s.arg+"/"+s.arg2} class="page">${a}</div>
    </main>
    <${St} />`}Ce(d`<${sn} />`,document.getElementById("app"));
