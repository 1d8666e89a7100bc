var fe,w,Ze,Kt,O,ze,Qe,et,Se,ue,ee,tt,Ce,Ee,Pe,zt,_e={},de=[],Yt=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,he=Array.isArray;function F(e,t){for(var n in t)e[n]=t[n];return e}function Re(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function $e(e,t,n){var o,s,r,a={};for(r in t)r=="key"?o=t[r]:r=="ref"?s=t[r]:a[r]=t[r];if(arguments.length>2&&(a.children=arguments.length>3?fe.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(r in e.defaultProps)a[r]===void 0&&(a[r]=e.defaultProps[r]);return pe(e,a,o,s,null)}function pe(e,t,n,o,s){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:s??++Ze,__i:-1,__u:0};return s==null&&w.vnode!=null&&w.vnode(r),r}function be(e){return e.children}function te(e,t){this.props=e,this.context=t}function G(e,t){if(t==null)return e.__?G(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?G(e):null}function Xt(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,o=[],s=[],r=F({},t);r.__v=t.__v+1,w.vnode&&w.vnode(r),xe(e.__P,r,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,o,n??G(t),!!(32&t.__u),s),r.__v=t.__v,r.__.__k[r.__i]=r,it(o,r,s),t.__e=t.__=null,r.__e!=n&&nt(r)}}function nt(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),nt(e)}function Ye(e){(!e.__d&&(e.__d=!0)&&O.push(e)&&!me.__r++||ze!=w.debounceRendering)&&((ze=w.debounceRendering)||Qe)(me)}function me(){try{for(var e,t=1;O.length;)O.length>t&&O.sort(et),e=O.shift(),t=O.length,Xt(e)}finally{O.length=me.__r=0}}function ot(e,t,n,o,s,r,a,i,u,c,d){var _,l,m,b,f,h,y=o&&o.__k||de,v=t.length;for(u=Jt(n,t,y,u,v),_=0;_<v;_++)(m=n.__k[_])!=null&&(l=m.__i!=-1&&y[m.__i]||_e,m.__i=_,h=xe(e,m,l,s,r,a,i,u,c,d),b=m.__e,m.ref&&l.ref!=m.ref&&(l.ref&&Te(l.ref,null,m),d.push(m.ref,m.__c||b,m)),f==null&&b!=null&&(f=b),4&m.__u?(u=rt(m,u,e),l.__e&&(l.__e=null)):typeof m.type=="function"&&h!==void 0?u=h:b&&(u=b.nextSibling),m.__u&=-7);return n.__e=f,u}function Jt(e,t,n,o,s){var r,a,i,u,c,d=n.length,_=d,l=0;for(e.__k=new Array(s),r=0;r<s;r++)(a=t[r])!=null&&typeof a!="boolean"&&typeof a!="function"?(typeof a=="string"||typeof a=="number"||typeof a=="bigint"||a.constructor==String?a=e.__k[r]=pe(null,a,null,null,null):he(a)?a=e.__k[r]=pe(be,{children:a},null,null,null):a.constructor===void 0&&a.__b>0?a=e.__k[r]=pe(a.type,a.props,a.key,a.ref?a.ref:null,a.__v):e.__k[r]=a,u=r+l,a.__=e,a.__b=e.__b+1,i=null,(c=a.__i=Zt(a,n,u,_))!=-1&&(_--,(i=n[c])&&(i.__u|=2)),i==null||i.__v==null?(c==-1&&(s>d?l--:s<d&&l++),typeof a.type!="function"&&(a.__u|=4)):c!=u&&(c==u-1?l--:c==u+1?l++:(c>u?l--:l++,a.__u|=4))):e.__k[r]=null;if(_)for(r=0;r<d;r++)(i=n[r])!=null&&(2&i.__u)==0&&(i.__e==o&&(o=G(i)),lt(i,i));return o}function rt(e,t,n){var o,s;if(typeof e.type=="function"){for(o=e.__k,s=0;o&&s<o.length;s++)o[s]&&(o[s].__=e,t=rt(o[s],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=G(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function Zt(e,t,n,o){var s,r,a,i=e.key,u=e.type,c=t[n],d=c!=null&&(2&c.__u)==0;if(c===null&&i==null||d&&i==c.key&&u==c.type)return n;if(o>(d?1:0)){for(s=n-1,r=n+1;s>=0||r<t.length;)if((c=t[a=s>=0?s--:r++])!=null&&(2&c.__u)==0&&i==c.key&&u==c.type)return a}return-1}function Xe(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||Yt.test(t)?n:n+"px"}function ce(e,t,n,o,s){var r,a;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||Xe(e.style,t,"");if(n)for(t in n)o&&n[t]==o[t]||Xe(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")r=t!=(t=t.replace(tt,"$1")),a=t.toLowerCase(),t=a in e||t=="onFocusOut"||t=="onFocusIn"?a.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+r]=n,n?o?n[ee]=o[ee]:(n[ee]=Ce,e.addEventListener(t,r?Pe:Ee,r)):e.removeEventListener(t,r?Pe:Ee,r);else{if(s=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function Je(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[ue]==null)t[ue]=Ce++;else if(t[ue]<n[ee])return;return n(w.event?w.event(t):t)}}}function xe(e,t,n,o,s,r,a,i,u,c){var d,_,l,m,b,f,h,y,v,I,Z,j,Q,Ke,le,ke,M=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),r=[i=t.__e=n.__e]),(d=w.__b)&&d(t);e:if(typeof M=="function"){_=a.length;try{if(v=t.props,I=M.prototype&&M.prototype.render,Z=(d=M.contextType)&&o[d.__c],j=d?Z?Z.props.value:d.__:o,n.__c?y=(l=t.__c=n.__c).__=l.__E:(I?t.__c=l=new M(v,j):(t.__c=l=new te(v,j),l.constructor=M,l.render=en),Z&&Z.sub(l),l.state||(l.state={}),l.__n=o,m=l.__d=!0,l.__h=[],l._sb=[]),I&&l.__s==null&&(l.__s=l.state),I&&M.getDerivedStateFromProps!=null&&(l.__s==l.state&&(l.__s=F({},l.__s)),F(l.__s,M.getDerivedStateFromProps(v,l.__s))),b=l.props,f=l.state,l.__v=t,m)I&&M.getDerivedStateFromProps==null&&l.componentWillMount!=null&&l.componentWillMount(),I&&l.componentDidMount!=null&&l.__h.push(l.componentDidMount);else{if(I&&M.getDerivedStateFromProps==null&&v!==b&&l.componentWillReceiveProps!=null&&l.componentWillReceiveProps(v,j),t.__v==n.__v||!l.__e&&l.shouldComponentUpdate!=null&&l.shouldComponentUpdate(v,l.__s,j)===!1){t.__v!=n.__v&&(l.props=v,l.state=l.__s,l.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(z){z&&(z.__=t)}),de.push.apply(l.__h,l._sb),l._sb=[],l.__h.length&&a.push(l),i=G(n);break e}l.componentWillUpdate!=null&&l.componentWillUpdate(v,l.__s,j),I&&l.componentDidUpdate!=null&&l.__h.push(function(){l.componentDidUpdate(b,f,h)})}if(l.context=j,l.props=v,l.__P=e,l.__e=!1,Q=w.__r,Ke=0,I)l.state=l.__s,l.__d=!1,Q&&Q(t),d=l.render(l.props,l.state,l.context),de.push.apply(l.__h,l._sb),l._sb=[];else do l.__d=!1,Q&&Q(t),d=l.render(l.props,l.state,l.context),l.state=l.__s;while(l.__d&&++Ke<25);l.state=l.__s,l.getChildContext!=null&&(o=F(F({},o),l.getChildContext())),I&&!m&&l.getSnapshotBeforeUpdate!=null&&(h=l.getSnapshotBeforeUpdate(b,f)),le=d!=null&&d.type===be&&d.key==null?at(d.props.children):d,i=ot(e,he(le)?le:[le],t,n,o,s,r,a,i,u,c),l.base=t.__e,t.__u&=-161,l.__h.length&&a.push(l),y&&(l.__E=l.__=null)}catch(z){if(a.length=_,t.__v=null,u||r!=null){if(z.then){for(t.__u|=u?160:128;i&&i.nodeType==8&&i.nextSibling;)i=i.nextSibling;r!=null&&(r[r.indexOf(i)]=null),t.__e=i}else if(r!=null)for(ke=r.length;ke--;)Re(r[ke])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),z.then||st(t),w.__e(z,t,n)}}else r==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):i=t.__e=Qt(n.__e,t,n,o,s,r,a,u,c);return(d=w.diffed)&&d(t),128&t.__u?void 0:i}function st(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(st))}function it(e,t,n){for(var o=0;o<n.length;o++)Te(n[o],n[++o],n[++o]);w.__c&&w.__c(t,e),e.some(function(s){try{e=s.__h,s.__h=[],e.some(function(r){r.call(s)})}catch(r){w.__e(r,s.__v)}})}function at(e){return typeof e!="object"||e==null||e.__b>0?e:he(e)?e.map(at):e.constructor!==void 0?null:F({},e)}function Qt(e,t,n,o,s,r,a,i,u){var c,d,_,l,m,b,f,h=n.props||_e,y=t.props,v=t.type;if(v=="svg"?s="http://www.w3.org/2000/svg":v=="math"?s="http://www.w3.org/1998/Math/MathML":s||(s="http://www.w3.org/1999/xhtml"),r!=null){for(c=0;c<r.length;c++)if((m=r[c])&&"setAttribute"in m==!!v&&(v?m.localName==v:m.nodeType==3)){e=m,r[c]=null;break}}if(e==null){if(v==null)return document.createTextNode(y);e=document.createElementNS(s,v,y.is&&y),i&&(w.__m&&w.__m(t,r),i=!1),r=null}if(v==null)h===y||i&&e.data==y||(e.data=y);else{if(r=v=="textarea"&&y.defaultValue!=null?null:r&&fe.call(e.childNodes),!i&&r!=null)for(h={},c=0;c<e.attributes.length;c++)h[(m=e.attributes[c]).name]=m.value;for(c in h)m=h[c],c=="dangerouslySetInnerHTML"?_=m:c=="children"||c in y||c=="value"&&"defaultValue"in y||c=="checked"&&"defaultChecked"in y||ce(e,c,null,m,s);for(c in y)m=y[c],c=="children"?l=m:c=="dangerouslySetInnerHTML"?d=m:c=="value"?b=m:c=="checked"?f=m:i&&typeof m!="function"||h[c]===m||ce(e,c,m,h[c],s);if(d)i||_&&(d.__html==_.__html||d.__html==e.innerHTML)||(e.innerHTML=d.__html),t.__k=[];else if(_&&(e.innerHTML=""),ot(t.type=="template"?e.content:e,he(l)?l:[l],t,n,o,v=="foreignObject"?"http://www.w3.org/1999/xhtml":s,r,a,r?r[0]:n.__k&&G(n,0),i,u),r!=null)for(c=r.length;c--;)Re(r[c]);i&&v!="textarea"||(c="value",v=="progress"&&b==null?e.removeAttribute("value"):b!=null&&(b!==e[c]||v=="progress"&&!b||v=="option"&&b!=h[c])&&ce(e,c,b,h[c],s),c="checked",f!=null&&f!=e[c]&&ce(e,c,f,h[c],s))}return e}function Te(e,t,n){try{if(typeof e=="function"){var o=typeof e.__u=="function";o&&e.__u(),o&&t==null||(e.__u=e(t))}else e.current=t}catch(s){w.__e(s,n)}}function lt(e,t,n){var o,s;if(w.unmount&&w.unmount(e),(o=e.ref)&&(o.current&&o.current!=e.__e||Te(o,null,t)),(o=e.__c)!=null){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(r){w.__e(r,t)}o.base=o.__P=o.__n=null}if(o=e.__k)for(s=0;s<o.length;s++)o[s]&&lt(o[s],t,n||typeof e.type!="function");n||Re(e.__e),e.__c=e.__=e.__e=void 0}function en(e,t,n){return this.constructor(e,n)}function Ae(e,t,n){var o,s,r,a;t==document&&(t=document.documentElement),w.__&&w.__(e,t),s=(o=typeof n=="function")?null:n&&n.__k||t.__k,r=[],a=[],xe(t,e=(!o&&n||t).__k=$e(be,null,[e]),s||_e,_e,t.namespaceURI,!o&&n?[n]:s?null:t.firstChild?fe.call(t.childNodes):null,r,!o&&n?n:s?s.__e:t.firstChild,o,a),it(r,e,a),e.props.children=null}fe=de.slice,w={__e:function(e,t,n,o){for(var s,r,a;t=t.__;)if((s=t.__c)&&!s.__)try{if((r=s.constructor)&&r.getDerivedStateFromError!=null&&(s.setState(r.getDerivedStateFromError(e)),a=s.__d),s.componentDidCatch!=null&&(s.componentDidCatch(e,o||{}),a=s.__d),a)return s.__E=s}catch(i){e=i}throw e}},Ze=0,Kt=function(e){return e!=null&&e.constructor===void 0},te.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=F({},this.state),typeof e=="function"&&(e=e(F({},n),this.props)),e&&F(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),Ye(this))},te.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),Ye(this))},te.prototype.render=be,O=[],Qe=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,et=function(e,t){return e.__v.__b-t.__v.__b},me.__r=0,Se=Math.random().toString(8),ue="__d"+Se,ee="__a"+Se,tt=/(PointerCapture)$|Capture$/i,Ce=0,Ee=Je(!1),Pe=Je(!0),zt=0;var H={roles:new Set,perms:new Set,users:new Set},ge=new Set,Ne=!1;function Ue(e,t){return typeof t!="string"||t===""||e.has(t)?!1:(e.size>=5e3&&e.delete(e.values().next().value),e.add(t),!0)}function De(e){let t=!1;for(let n of Array.isArray(e)?e:[e])!n||typeof n!="object"||(t=Ue(H.roles,n.role)|t,t=Ue(H.perms,n.name)|t,t=Ue(H.users,n.user)|t);t&&!Ne&&(Ne=!0,queueMicrotask(()=>{Ne=!1,ge.forEach(n=>n())}))}function ct(e,t){H[e].delete(t)&&ge.forEach(n=>n())}function ut(e){return ge.add(e),()=>ge.delete(e)}var Ie="rolegate.console.key",pt=location.pathname.replace(/console\/[^/]*$/,""),Me=()=>sessionStorage.getItem(Ie)||"",_t=e=>sessionStorage.setItem(Ie,e),Le=()=>sessionStorage.removeItem(Ie),dt=!0,L=()=>dt,mt=e=>{dt=e};async function ft(){try{let e=await fetch(new URL(pt+"api/whoami",location.origin),{headers:{Accept:"application/json"},credentials:"same-origin",cache:"no-store",referrerPolicy:"no-referrer"});if(!e.ok)return null;let t=await e.json();return t&&t.success===!0&&t.data&&t.data.user?t.data:null}catch{return null}}var ne=class extends Error{constructor(t,n){super(n),this.status=t}},ht=()=>{},$t=e=>{ht=e},g=encodeURIComponent;async function E(e,t,{query:n,body:o,key:s,total:r}={}){if(t.split("/").some(l=>l==="."||l===".."))throw new ne(400,'The names "." and ".." cannot be sent in a URL path from a browser (it would reach another route); use rolegatectl or the REST API');let a=new URL(pt+"api/"+t,location.origin);for(let[l,m]of Object.entries(n||{}))m!=null&&m!==""&&a.searchParams.set(l,String(m));let i=s??Me(),u={Accept:"application/json"};i&&(u.Authorization="Bearer "+i);let c={method:e,headers:u,credentials:i?"omit":"same-origin",cache:"no-store",referrerPolicy:"no-referrer"};o!==void 0&&(u["Content-Type"]="application/json",c.body=JSON.stringify(o));let d;try{d=await fetch(a,c)}catch(l){throw new ne(0,"The server cannot be reached ("+l.message+")")}let _=null;try{_=await d.json()}catch{}if(!d.ok||!_||_.success!==!0){let l=_&&_.message?_.message:d.status+" "+d.statusText;throw _&&_.error&&_.error!==_.message&&(l+=": "+_.error),d.status===401&&s===void 0&&ht(l),new ne(d.status,l)}if(r){let l=d.headers.get("X-Total-Count"),m=l===null||l===""?NaN:Number(l);return{data:_.data,total:Number.isSafeInteger(m)&&m>=0?m:null}}return _.data}async function k(e,t){let n=await E("GET",e,{query:t});return De(n),n}async function ye(e,t){let{data:n,total:o}=await E("GET",e,{query:t,total:!0});return De(n),{items:n,total:o}}var gt=function(e,t,n,o){var s;t[0]=0;for(var r=1;r<t.length;r++){var a=t[r++],i=t[r]?(t[0]|=a?1:2,n[t[r++]]):t[++r];a===3?o[0]=i:a===4?o[1]=Object.assign(o[1]||{},i):a===5?(o[1]=o[1]||{})[t[++r]]=i:a===6?o[1][t[++r]]+=i+"":a?(s=e.apply(i,gt(e,i,n,["",null])),o.push(s),i[0]?t[0]|=2:(t[r-2]=0,t[r]=s)):o.push(i)}return o},bt=new Map;function yt(e){var t=bt.get(this);return t||(t=new Map,bt.set(this,t)),(t=gt(this,t.get(e)||(t.set(e,t=(function(n){for(var o,s,r=1,a="",i="",u=[0],c=function(l){r===1&&(l||(a=a.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,l,a):r===3&&(l||a)?(u.push(3,l,a),r=2):r===2&&a==="..."&&l?u.push(4,l,0):r===2&&a&&!l?u.push(5,0,!0,a):r>=5&&((a||!l&&r===5)&&(u.push(r,0,a,s),r=6),l&&(u.push(r,l,0,s),r=6)),a=""},d=0;d<n.length;d++){d&&(r===1&&c(),c(d));for(var _=0;_<n[d].length;_++)o=n[d][_],r===1?o==="<"?(c(),u=[u],r=3):a+=o:r===4?a==="--"&&o===">"?(r=1,a=""):a=o+a[0]:i?o===i?i="":a+=o:o==='"'||o==="'"?i=o:o===">"?(c(),r=1):r&&(o==="="?(r=5,s=a,a=""):o==="/"&&(r<5||n[d][_+1]===">")?(c(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(c(),r=2):a+=o),r===3&&a==="!--"&&(r=4,u=u[0])}return c(),u})(e)),t),arguments,[])).length>1?t:t[0]}var p=yt.bind($e);var oe,P,We,vt,re=0,xt=[],R=w,wt=R.__b,kt=R.__r,St=R.diffed,Et=R.__c,Pt=R.unmount,Ct=R.__;function He(e,t){R.__h&&R.__h(P,e,re||t),re=0;var n=P.__H||(P.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function $(e){return re=1,tn(Ut,e)}function tn(e,t,n){var o=He(oe++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):Ut(void 0,t),function(i){var u=o.__N?o.__N[0]:o.__[0],c=o.t(u,i);u!==c&&(o.__N=[c,o.__[1]],o.__c.setState({}))}],o.__c=P,!P.__f)){var s=function(i,u,c){if(!o.__c.__H)return!0;var d=!1,_=o.__c.props!==i;if(o.__c.__H.__.some(function(m){if(m.__N){d=!0;var b=m.__[0];m.__=m.__N,m.__N=void 0,b!==m.__[0]&&(_=!0)}}),r){var l=r.call(this,i,u,c);return d?l||_:l}return!d||_};P.__f=!0;var r=P.shouldComponentUpdate,a=P.componentWillUpdate;P.componentWillUpdate=function(i,u,c){if(this.__e){var d=r;r=void 0,s(i,u,c),r=d}a&&a.call(this,i,u,c)},P.shouldComponentUpdate=s}return o.__N||o.__}function N(e,t){var n=He(oe++,3);!R.__s&&Nt(n.__H,t)&&(n.__=e,n.u=t,P.__H.__h.push(n))}function Y(e){return re=5,Tt(function(){return{current:e}},[])}function Tt(e,t){var n=He(oe++,7);return Nt(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function At(e,t){return re=8,Tt(function(){return e},t)}function nn(){for(var e;e=xt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(ve),t.__h.some(Fe),t.__h=[]}catch(n){t.__h=[],R.__e(n,e.__v)}}}R.__b=function(e){P=null,wt&&wt(e)},R.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),Ct&&Ct(e,t)},R.__r=function(e){kt&&kt(e),oe=0;var t=(P=e.__c).__H;t&&(We===P?(t.__h=[],P.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(ve),t.__h.some(Fe),t.__h=[],oe=0)),We=P},R.diffed=function(e){St&&St(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(xt.push(t)!==1&&vt===R.requestAnimationFrame||((vt=R.requestAnimationFrame)||on)(nn)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),We=P=null},R.__c=function(e,t){t.some(function(n){try{n.__h.some(ve),n.__h=n.__h.filter(function(o){return!o.__||Fe(o)})}catch(o){t.some(function(s){s.__h&&(s.__h=[])}),t=[],R.__e(o,n.__v)}}),Et&&Et(e,t)},R.unmount=function(e){Pt&&Pt(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(o){try{ve(o)}catch(s){t=s}}),n.__H=void 0,t&&R.__e(t,n.__v))};var Rt=typeof requestAnimationFrame=="function";function on(e){var t,n=function(){clearTimeout(o),Rt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);Rt&&(t=requestAnimationFrame(n))}function ve(e){var t=P,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),P=t}function Fe(e){var t=P;e.__c=e.__(),P=t}function Nt(e,t){return!e||e.length!==t.length||t.some(function(n,o){return n!==e[o]})}function Ut(e,t){return typeof t=="function"?t(e):t}var C=50;function x(e,t,n,o=!0){let s=JSON.stringify(n),[r,a]=$({key:s,cursors:[void 0]}),i=r.key===s?r.cursors:[void 0],[u,c]=$({items:[],total:null,loading:!0,error:""}),[d,_]=$(0),l=i[i.length-1];N(()=>{if(!o){c({items:[],total:null,loading:!1,error:""});return}let b=!0;return c(f=>({...f,loading:!0})),e(l).then(f=>b&&c(Array.isArray(f)||!f?{items:f||[],total:null,loading:!1,error:""}:{items:f.items||[],total:f.total??null,loading:!1,error:""}),f=>b&&c({items:[],total:null,loading:!1,error:f.message})),()=>{b=!1}},[s,l,d,o]);let m=u.items;return{...u,page:i.length,hasNext:m.length>=C,hasPrev:i.length>1,next:()=>m.length&&a({key:s,cursors:[...i,t(m[m.length-1])]}),prev:()=>a({key:s,cursors:i.slice(0,-1)}),reload:()=>_(b=>b+1)}}function rn({p:e,label:t,total:n}){if(!e.hasPrev&&!e.hasNext)return null;let o=n>0?Math.max(1,Math.ceil(n/C)):0;return p`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}${o?" of "+o:""}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function q({text:e,id:t}){return e?p`<p class="error" role="alert" id=${t}>${e}</p>`:null}function S({id:e,label:t,value:n,onInput:o,required:s,placeholder:r,type:a,hint:i,list:u,note:c}){let d=[i&&e+"-hint",c&&e+"-new"].filter(Boolean).join(" ");return p`<div class="field">
    <label for=${e}>${t}${s?"":p` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${a||"text"} value=${n} required=${s} placeholder=${r}
      list=${u} autocomplete="off" spellcheck=${!1} aria-describedby=${d||void 0}
      onInput=${_=>o(_.currentTarget.value)} />
    ${i&&p`<small id=${e+"-hint"}>${i}</small>`}
    ${c&&p`<small class="note" id=${e+"-new"}>${c}</small>`}
  </div>`}var B="known-roles",V="known-perms",W="known-users";function je(){let[,e]=$(0);N(()=>ut(()=>e(n=>n+1)),[]);let t=n=>[...n].sort().map(o=>p`<option key=${o} value=${o} />`);return p`<datalist id=${B}>${t(H.roles)}</datalist>
    <datalist id=${V}>${t(H.perms)}</datalist>
    <datalist id=${W}>${t(H.users)}</datalist>`}function ie(e,t){let n=t.trim();if(!n||H[e].has(n))return"";let o={perms:"permission",roles:"role",users:"user"}[e];return"\u201C"+n+"\u201D is not a "+o+" name seen so far: check the spelling."}var qe={owner:"",text:"",kind:""},Oe=new Set;function se(e,t,n="ok"){qe={owner:e,text:t,kind:n},Oe.forEach(o=>o())}var Dt=()=>se("","","");function U({owner:e}){let[,t]=$(0);N(()=>{let r=()=>t(a=>a+1);return Oe.add(r),()=>Oe.delete(r)},[]);let n=qe.owner===e?qe:null,o=n?n.text:"",s=n?n.kind:"";return p`<p id=${e+"-status"} class=${"msg "+s} role=${s==="error"?"alert":"status"}
    aria-live=${s==="error"?"assertive":"polite"}>${o}</p>`}function D(e){let[t,n]=$(!1),[o,s]=$(""),r=At(async a=>{n(!0),s("");try{let i=await a();return e&&typeof i=="string"&&se(e,i,"ok"),i}catch(i){e?se(e,i.message,"error"):s(i.message);return}finally{n(!1)}},[e]);return{busy:t,error:o,run:r,setError:s}}function T({p:e,label:t,empty:n,render:o,id:s,total:r,counted:a,prefix:i}){let u=r!==void 0?r:e.total;return p`<div class="list" id=${s} aria-busy=${e.loading}>
    <${q} text=${e.error} />
    ${a&&!e.loading&&!e.error&&e.total>0&&p`<p class="count" id=${s+"-count"}>${e.total} ${e.total===1?a[0]:a[1]}${i?" starting with \u201C"+i+"\u201D":""}</p>`}
    ${!e.loading&&!e.error&&e.items.length===0&&p`<p class="empty">${n}</p>`}
    ${e.items.length>0&&p`<ul aria-label=${t}>${e.items.map(o)}</ul>`}
    <${rn} p=${e} label=${t} total=${u} />
  </div>`}var A=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function It(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"";return"member of "+e.membership+" "+t+n+"; granted to "+e.granted_by}function X({id:e,label:t,value:n,onInput:o,list:s}){return p`<div class="search" role="search">
    <${S} id=${e} label=${t} value=${n} onInput=${o} list=${s} type="search"
      hint="Names starting with this text; empty: all." />
  </div>`}function J(e,t=250){let[n,o]=$(e);return N(()=>{let s=setTimeout(()=>o(e),t);return()=>clearTimeout(s)},[e,t]),n}function Mt(){let[e,t]=$(""),n=J(e),o=x(m=>ye("roles",{limit:C,after:m,prefix:n}),m=>m.role,[n]),[s,r]=$(""),[a,i]=$(""),[u,c]=$(""),d=Y(null);N(()=>{!u&&d.current&&d.current.isConnected&&d.current.focus()},[u]);let _=D("new-role"),l=m=>{m.preventDefault(),_.run(async()=>{let f="Role "+(await E("POST","role/"+g(s),{body:a?{description:a}:void 0})).role+" created.";return r(""),i(""),o.reload(),f})};return p`
    ${L()&&p`<section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${l}>
        <${S} id="new-role" label="Role name" value=${s} onInput=${r} required />
        <${S} id="new-role-desc" label="Description" value=${a} onInput=${i} />
        <button type="submit" disabled=${_.busy}>Create role</button>
      </form>
      <${U} owner="new-role" />
    </section>`}
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${X} id="find-role" label="Find roles" value=${e} onInput=${t} list=${B} />
      <${U} owner="roles" />
      <${T} p=${o} label="Roles" id="roles-list" counted=${["role","roles"]} prefix=${n} empty=${n?"No role starts with \u201C"+n+"\u201D.":"No roles yet."} render=${m=>p`
        <li key=${m.role} class="row">
          <a href=${A("role",m.role)}>${m.role}</a>
          <span class="desc">${m.description}</span>
          ${L()&&p`<button type="button" class="danger" onClick=${b=>{d.current=b.currentTarget,c(m.role)}}
            aria-label=${"Delete role "+m.role}>Delete</button>`}
        </li>`} />
    </section>
    ${u&&p`<${sn} role=${u} onClose=${m=>{c(""),m&&(ct("roles",u),se("roles",m),o.reload(),d.current=null)}} />`}`}var we=100;function sn({role:e,onClose:t}){let n=Y(),[o,s]=$(null),r=D();N(()=>{let c=n.current;c.showModal();let d=()=>t("");return c.addEventListener("cancel",d),r.run(async()=>{let _="role/"+g(e),[l,m,b,f,h]=await Promise.all([k(_),k("members/"+g(e),{limit:we}),k("role_permissions/"+g(e),{limit:we}),k(_+"/inherits",{limit:we}),k(_+"/inherited_by",{limit:we})]);s({counts:l.counts,members:m.map(y=>y.user),perms:b.map(y=>y.name),parents:f.map(y=>y.role),children:h.map(y=>y.role)})}),()=>c.removeEventListener("cancel",d)},[e]);let a=()=>r.run(async()=>{let c=await E("DELETE","role/"+g(e)),d=o.counts;t(c.deleted?"Role "+e+" deleted, with "+K(d.members+d.scoped_members,"membership")+" and "+K(d.permissions,"permission")+".":"Role "+e+" was already gone.")}),i=(c,d)=>d===0?"none":c.join(", ")+(d>c.length?" and "+(d-c.length)+" more":""),u=o&&o.counts;return p`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${q} text=${r.error} />
    ${o?p`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${K(u.members,"global membership")}</strong>: ${i(o.members,u.members)}</li>
        <li><strong>${K(u.scoped_members,"membership")} in a scope</strong>${u.scoped_members?" (listed on the Members page)":""}</li>
        <li><strong>${K(u.permissions,"permission")}</strong>: ${i(o.perms,u.permissions)}</li>
        <li><strong>${K(u.parents,"parent link")}</strong> (it inherits from): ${i(o.parents,u.parents)}</li>
        <li><strong>${K(u.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${i(o.children,u.children)}</li>
      </ul>
      <p>Re-creating the role brings none of this back.</p></div>`:p`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${a} disabled=${!o||r.busy}>Delete ${e}</button>
      <button type="button" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}function K(e,t){return e+" "+t+(e===1?"":"s")}function Lt({role:e}){let[t,n]=$(0),[o,s]=$({detail:null,error:""});N(()=>{let c=!0;return k("role/"+g(e)).then(d=>c&&s({detail:d,error:""}),d=>c&&s({detail:null,error:d.status===404?"Role \u201C"+e+"\u201D not found: there is no role of that name (create it on the Roles page).":d.message})),()=>{c=!1}},[e,t]);let r=()=>n(c=>c+1),a=o.detail!==null,i=o.detail?o.detail.counts:null,u={role:e,tick:t,changed:r,ok:a};return p`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${o.detail?o.detail.description||"No description.":""}</p>
    <${q} text=${o.error} id="role-error" />
    <fieldset class="plain" disabled=${!a}>
      <legend class="visually-hidden">Role ${e}</legend>
      ${a&&p`<${an} role=${e} current=${o.detail.description||""}
        done=${c=>s({detail:{...o.detail,description:c},error:""})} />`}
      <div class="cols">
        <${ln} ...${u} total=${i?i.permissions:0} />
        <${cn} ...${u} total=${i?i.parents:0} />
      </div>
      ${a&&p`<${un} ...${u} count=${i.children} />
        <${pn} ...${u} inherits=${i.parents>0} />`}
      <${dn} ...${u} total=${i?i.members:0} />
    </fieldset>`}function an({role:e,current:t,done:n}){if(!L())return null;let[o,s]=$(!1),[r,a]=$(t),i=D("describe");return p`<div class="describe">
    ${o?p`<form class="inline" onSubmit=${c=>{c.preventDefault(),i.run(async()=>{let d=await E("PUT","role/"+g(e),{body:{description:r}});return n(d.description),s(!1),d.description?"Description of "+e+" saved.":"Description of "+e+" cleared."})}}>
        <${S} id="role-desc-edit" label="Description" value=${r} onInput=${a} hint="Empty: no description." />
        <button type="submit" disabled=${i.busy}>Save description</button>
        <button type="button" onClick=${()=>{s(!1),a(t)}}>Cancel</button>
      </form>`:p`<button type="button" id="edit-desc" onClick=${()=>{a(t),s(!0)}}>Edit description</button>`}
    <${U} owner="describe" />
  </div>`}function Ge({id:e,label:t,button:n,add:o,extra:s,owner:r,list:a,kind:i}){if(!L())return null;let[u,c]=$(""),d=D(r);return p`<form class="inline" onSubmit=${l=>{l.preventDefault(),d.run(async()=>{let m=await o(u);return c(""),m})}}>
      <${S} id=${e} label=${t} value=${u} onInput=${c} required list=${a}
        note=${i?ie(i,u):""} />
      ${s}
      <button type="submit" disabled=${d.busy}>${n}</button>
    </form>`}function Be({label:e,remove:t,owner:n}){if(!L())return null;let o=D(n);return p`<button type="button" class="danger" aria-label=${e} disabled=${o.busy}
    onClick=${()=>o.run(t)}>Remove</button>`}function ln({role:e,tick:t,changed:n,ok:o,total:s}){let r=x(i=>k("role_permissions/"+g(e),{limit:C,after:i}),i=>i.name,[e,t],o),a=i=>"permission/"+g(e)+"/"+g(i);return p`<section aria-labelledby="grants-h">
    <h2 id="grants-h">Permissions granted to ${e}</h2>
    <${Ge} id="grant-name" label="Permission" button="Grant" owner="grants" list=${V} kind="perms" add=${async i=>(await E("POST",a(i)),n(),"Granted "+i+" to "+e+".")} />
    <${U} owner="grants" />
    ${o&&p`<${T} p=${r} total=${s} label="Granted permissions" id="grants-list" empty="No permissions granted directly." render=${i=>p`
      <li key=${i.name} class="row"><a href=${A("whocan",i.name)}>${i.name}</a>
        <${Be} owner="grants" label=${"Remove permission "+i.name} remove=${async()=>(await E("DELETE",a(i.name)),n(),"Removed "+i.name+" from "+e+".")} /></li>`} />`}
  </section>`}function cn({role:e,tick:t,changed:n,ok:o,total:s}){let r=x(i=>k("role/"+g(e)+"/inherits",{limit:C,after:i}),i=>i.role,[e,t],o),a=i=>"role/"+g(e)+"/inherits/"+g(i);return p`<section aria-labelledby="parents-h">
    <h2 id="parents-h">${e} inherits from</h2>
    <${Ge} id="parent-name" label="Parent role" button="Inherit" owner="parents" list=${B} kind="roles" add=${async i=>(await E("POST",a(i)),n(),e+" now inherits from "+i+".")} />
    <${U} owner="parents" />
    ${o&&p`<${T} p=${r} total=${s} label="Parent roles" id="parents-list" empty="Inherits from no role." render=${i=>p`
      <li key=${i.role} class="row"><a href=${A("role",i.role)}>${i.role}</a>
        <${Be} owner="parents" label=${"Stop inheriting from "+i.role} remove=${async()=>(await E("DELETE",a(i.role)),n(),e+" no longer inherits from "+i.role+".")} /></li>`} />`}
  </section>`}function Wt({id:e,title:t,children:n,onToggle:o}){return p`<section aria-labelledby=${e+"-h"}>
    <details id=${e} onToggle=${s=>o(s.currentTarget.open)}>
      <summary><h2 id=${e+"-h"}>${t}</h2></summary>
      ${n}
    </details>
  </section>`}function un({role:e,tick:t,ok:n,count:o}){let[s,r]=$(!1),a=x(i=>k("role/"+g(e)+"/inherited_by",{limit:C,after:i}),i=>i.role,[e,t],n&&s&&o>0);return p`<${Wt} id="children" title=${"Roles inheriting from "+e+" ("+o+")"} onToggle=${r}>
    ${o===0?p`<p class="empty" id="children-list">None.</p>`:p`<${T} p=${a} label="Roles inheriting from it" id="children-list" empty="None." render=${i=>p`
      <li key=${i.role} class="row"><a href=${A("role",i.role)}>${i.role}</a></li>`} />`}
  <//>`}function pn({role:e,tick:t,ok:n,inherits:o}){let[s,r]=$(!1),a=x(i=>k("role_permissions/"+g(e),{limit:C,after:i,effective:"true"}),i=>i.name,[e,t],n&&s);return p`<${Wt} id="effective" title=${"Effective permissions of "+e} onToggle=${r}>
    <${T} p=${a} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${i=>p`
      <li key=${i.name} class="row wrap"><span class="name">${i.name}</span>
        ${o?p`<${_n} role=${e} name=${i.name} />`:p`<span class="src">granted directly</span>`}</li>`} />
  <//>`}function _n({role:e,name:t}){let[n,o]=$(""),s=async()=>{try{let r=await k("permission/"+g(e)+"/"+g(t),{explain:"true"}),a=r.chain||[];o(r.result?a.length<=1?"granted directly":"inherited from "+a[a.length-1]+" ("+a.join(" \u2192 ")+")":"no longer held")}catch(r){o(r.message)}};return n?p`<span class="src" role="status">${n}</span>`:p`<button type="button" aria-label=${"Where does "+t+" come from?"} onClick=${s}>Where from?</button>`}function dn({role:e,tick:t,changed:n,ok:o,total:s}){let[r,a]=$(""),[i,u]=$(""),[c,d]=$(""),_=J(c),l=x(f=>k("members/"+g(e),{limit:C,after:f,scope:i,prefix:_}),f=>f.user,[e,t,i,_],o),m=f=>"membership/"+g(f)+"/"+g(e),b=f=>f?" of "+e+" in scope "+f:" global member of "+e;return p`<section aria-labelledby="members-h">
    <h2 id="members-h">Members of ${e}</h2>
    <${Ge} id="member-user" label="User" button="Add member" owner="members" list=${W} add=${async f=>(await E("POST",m(f),{query:{scope:r}}),n(),f+" is now a"+(r?" member":"")+b(r)+".")} extra=${p`<${S} id="member-scope" label="Scope" value=${r} onInput=${a}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <${U} owner="members" />
    <div class="inline">
      <p class="hint" id="members-shown">Showing ${i?"members in scope \u201C"+i+"\u201D (global ones included)":"global members"}.</p>
      <button type="button" id="show-scope" onClick=${()=>u(r.trim())}>${r.trim()?"Show members in scope \u201C"+r.trim()+"\u201D":"Show global members"}</button>
    </div>
    <${X} id="find-member" label="Find members" value=${c} onInput=${d} list=${W} />
    ${o&&p`<${T} p=${l} label="Members" id="members-list" total=${i||_?0:s}
      empty=${_?"No member starts with \u201C"+_+"\u201D.":"No members."} render=${f=>p`
      <li key=${f.user+"/"+(f.scope||"")} class="row"><a href=${A("user",f.user)}>${f.user}</a>
        <span class=${f.scope?"scope":"scope global"}>${f.scope?"in scope "+f.scope:"global"}</span>
        <${Be} owner="members" label=${"Remove "+f.user+(f.scope?" from scope "+f.scope:" (global member)")}
          remove=${async()=>{let h=await E("DELETE",m(f.user),{query:{scope:f.scope||void 0}});return n(),h.deleted?f.user+" is no longer a"+(f.scope?" member":"")+b(f.scope)+".":f.user+" was already not a"+(f.scope?" member":"")+b(f.scope)+"."}} /></li>`} />`}
  </section>`}function Ve({go:e,initial:t}){let[n,o]=$(t||"");return p`<form class="inline" onSubmit=${s=>{s.preventDefault(),n&&e(A("user",n))}}>
    <${S} id="lookup-user" label="User" value=${n} onInput=${o} required list=${W} />
    <button type="submit">Show user</button>
  </form>`}function Ht({go:e}){let[t,n]=$(""),o=J(t),s=x(r=>ye("users",{limit:C,after:r,prefix:o}),r=>r.user,[o]);return p`
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">Look up a user</h2>
      <${Ve} go=${e} />
    </section>
    <section aria-labelledby="users-h">
      <h2 id="users-h">Users holding a membership</h2>
      <${X} id="find-user" label="Find users" value=${t} onInput=${n} list=${W} />
      <${T} p=${s} label="Users" id="users-list" counted=${["user","users"]} prefix=${o} empty=${o?"No user starts with \u201C"+o+"\u201D.":"No user holds a membership."}
        render=${r=>p`<li key=${r.user} class="row"><a href=${A("user",r.user)}>${r.user}</a></li>`} />
    </section>`}async function Ft(e,t,n){let o=await k("has_permission/"+g(e)+"/"+g(t),{scope:n,explain:"true"});return o.result?e+" can "+t+": yes, "+It(o.grant)+".":e+" cannot "+t+(n?" in scope "+n:"")+"."}function qt({user:e,go:t}){let[n,o]=$(""),[s,r]=$(""),a=x(h=>k("user_roles/"+g(e),{limit:C,after:h,scope:s}),h=>h.role,[e,s]),i=x(h=>k("user_permissions/"+g(e),{limit:C,after:h,scope:s}),h=>h.name,[e,s]),[u,c]=$(""),[d,_]=$(""),[l,m]=$({}),b=D("check");return p`
    <${Ve} go=${t} initial=${e} />
    <form class="inline" onSubmit=${h=>{h.preventDefault(),r(n)}}>
      <${S} id="user-scope" label="Scope" value=${n} onInput=${o} hint="Empty: global memberships only." />
      <button type="submit">Apply scope</button>
    </form>
    <section aria-labelledby="check-h">
      <h2 id="check-h">Can ${e} …?</h2>
      <form class="inline" onSubmit=${h=>{h.preventDefault(),_(""),b.run(async()=>{_(await Ft(e,u,s))})}}>
        <${S} id="check-perm" label="Permission" value=${u} onInput=${c} required list=${V}
          note=${ie("perms",u)} />
        <button type="submit" disabled=${b.busy}>Check</button>
      </form>
      <${U} owner="check" />
      <p id="check-result" role="status" class=${d.includes(": yes")?"yes":"no"}>${d}</p>
    </section>
    <div class="cols">
      <section aria-labelledby="uroles-h">
        <h2 id="uroles-h">Roles${s?" in scope "+s:""}</h2>
        <${T} p=${a} label="Roles of the user" id="user-roles" empty="Member of no role." render=${h=>p`
          <li key=${h.role+"/"+(h.scope||"")} class="row"><a href=${A("role",h.role)}>${h.role}</a>
            ${s&&p`<span class=${h.scope?"scope":"scope global"}>${h.scope?"in scope "+h.scope:"global"}</span>`}</li>`} />
      </section>
      <section aria-labelledby="uperms-h">
        <h2 id="uperms-h">Effective permissions</h2>
        <${T} p=${i} label="Effective permissions of the user" id="user-perms" empty="No permissions." render=${h=>p`
          <li key=${h.name} class="row wrap"><span class="name">${h.name}</span>
            <button type="button" aria-label=${"Why can "+e+" "+h.name+"?"}
              onClick=${async()=>{let y;try{y=await Ft(e,h.name,s)}catch(v){y=v.message}m({...l,[h.name]:y})}}>Why?</button>
            ${l[h.name]&&p`<span class="why" role="status">${l[h.name]}</span>`}</li>`} />
      </section>
    </div>`}function Ot({go:e}){let t=x(_=>k("scoped_memberships",{limit:C,after:_}),_=>_.scope+"/"+_.user+"/"+_.role,[]),[n,o]=$(""),[s,r]=$(""),[a,i]=$(""),u=D("add-membership"),c=D("scoped"),d=_=>{_.preventDefault(),u.run(async()=>{await E("POST","membership/"+g(n)+"/"+g(s),{query:{scope:a}});let l=n+" is now a member of "+s+(a?" in scope "+a:" globally")+".";return o(""),t.reload(),l})};return p`
    ${L()&&p`<section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${d}>
        <${S} id="m-user" label="User" value=${n} onInput=${o} required list=${W} />
        <${S} id="m-role" label="Role" value=${s} onInput=${r} required list=${B} note=${ie("roles",s)} />
        <${S} id="m-scope" label="Scope" value=${a} onInput=${i} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${u.busy}>Add membership</button>
      </form>
      <${U} owner="add-membership" />
    </section>`}
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${Ve} go=${e} />
      <p class="hint">Global members are listed on each role's page.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h">Memberships in one scope</h2>
      <${U} owner="scoped" />
      <${T} p=${t} label="Scoped memberships" id="scoped-list" empty="No scoped memberships." render=${_=>p`
        <li key=${_.scope+"/"+_.user+"/"+_.role} class="row">
          <span class="scope">${_.scope}</span>
          <span class="grow"><a href=${A("user",_.user)}>${_.user}</a> is a member of <a href=${A("role",_.role)}>${_.role}</a></span>
          ${L()&&p`<button type="button" class="danger" aria-label=${"Remove "+_.user+" from "+_.role+" in scope "+_.scope}
            onClick=${()=>c.run(async()=>(await E("DELETE","membership/"+g(_.user)+"/"+g(_.role),{query:{scope:_.scope}}),t.reload(),_.user+" is no longer a member of "+_.role+" in scope "+_.scope+"."))}>Remove</button>`}</li>`} />
    </section>`}function jt({name:e,scope:t,go:n}){let[o,s]=$(e||""),[r,a]=$(t||""),i=x(c=>e?k("which_users_can/"+g(e),{limit:C,after:c,scope:t}):Promise.resolve([]),c=>c.user,[e,t]),u=x(c=>e?k("which_roles_can/"+g(e),{limit:C,after:c}):Promise.resolve([]),c=>c.role,[e]);return p`
    <form class="inline" onSubmit=${c=>{c.preventDefault(),o&&n(r.trim()?A("whocan",o,r.trim()):A("whocan",o))}}>
      <${S} id="whocan-perm" label="Permission" value=${o} onInput=${s} required list=${V} />
      <${S} id="whocan-scope" label="Scope" value=${r} onInput=${a} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&p`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${t?" in scope "+t:""}</h2>
        <${T} p=${i} label="Users" id="whocan-users" empty="Nobody." render=${c=>p`
          <li key=${c.user} class="row"><a href=${A("user",c.user)}>${c.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}</h2>
        <${T} p=${u} label="Roles" id="whocan-roles" empty="No role." render=${c=>p`
          <li key=${c.role} class="row"><a href=${A("role",c.role)}>${c.role}</a></li>`} />
      </section>
    </div>`}`}var mn=["add_role","set_description","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","batch"];function Gt(){let[e,t]=$(""),[n,o]=$(""),s=x(r=>k("audit",{limit:C,before:r,action:n}),r=>r.id,[n]);return p`
    <form class="inline" onSubmit=${r=>{r.preventDefault(),o(e.trim())}}>
      <${S} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions"
        hint="Empty: every action." />
      <datalist id="audit-actions">${mn.map(r=>p`<option value=${r} />`)}</datalist>
      <button type="submit">Filter</button>
    </form>
    <${q} text=${s.error} />
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${s.loading}>
        <caption>Audit records, newest first${n?", action "+n:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Who</th><th scope="col">Reason</th><th scope="col">Request</th></tr></thead>
        <tbody>${s.items.map(r=>p`<tr key=${r.id}>
          <td data-label="When"><time datetime=${r.at}>${r.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${r.action}</td><td data-label="Resource">${r.resource}</td>
          <td data-label="Outcome">${r.outcome}</td><td data-label="Who" class="actor">${r.actor}</td>
          <td data-label="Reason">${r.reason}</td><td data-label="Request" class="mono">${r.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${!s.loading&&!s.error&&s.items.length===0&&p`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${s.prev} disabled=${!s.hasPrev}>Newer</button>
      <span>Page ${s.page}</span>
      <button type="button" onClick=${s.next} disabled=${!s.hasNext}>Older</button>
    </nav>`}function Bt({me:e}){return p`${e.members.map(t=>p`<${fn} key=${t.scope} d=${t} />`)}`}var ae=e=>e?"in scope "+e:"globally";function fn({d:e}){let[t,n]=$(0),[o,s]=$(""),[r,a]=$(e.roles[0]||""),i="d-"+(e.scope||"global").replace(/[^A-Za-z0-9_-]/g,"_"),u=D(i),c=_=>{_.preventDefault(),u.run(async()=>(await E("POST","membership/"+g(o)+"/"+g(r),{query:{scope:e.scope}}),s(""),n(l=>l+1),o+" is now a member of "+r+" "+ae(e.scope)+"."))},d=e.scope?"Scope "+e.scope:"Every scope (global)";return p`<section aria-labelledby=${i+"-h"}>
    <h2 id=${i+"-h"}>${d}</h2>
    ${e.roles.length===0?p`<p>You hold rolegate.members ${ae(e.scope)}, but no role whose every permission you hold there.</p>`:p`
    <form class="inline" onSubmit=${c}>
      <${S} id=${i+"-user"} label="User" value=${o} onInput=${s} required list=${W} />
      <div class="field">
        <label for=${i+"-role"}>Role</label>
        <select id=${i+"-role"} value=${r} onChange=${_=>a(_.currentTarget.value)}>
          ${e.roles.map(_=>p`<option value=${_}>${_}</option>`)}
        </select>
      </div>
      <button type="submit" disabled=${u.busy}>Add member</button>
    </form>`}
    <${U} owner=${i} />
    ${e.roles.map(_=>p`<${hn} key=${_+"/"+t} role=${_} scope=${e.scope} owner=${i} />`)}
  </section>`}function hn({role:e,scope:t,owner:n}){let[o,s]=$(0),r=x(u=>k("members/"+g(e),{scope:t||void 0,limit:C,after:u}),u=>typeof u=="string"?u:u.user,[e,t,o]),a=D(n),i=r.items.filter(u=>(u.scope||"")===t);return p`<div class="delegated-role">
    <h3>${e}</h3>
    <${T} p=${{...r,items:i}} label=${"Members of "+e} id=${"members-"+e}
      empty=${"No member of "+e+" "+ae(t)+"."} render=${u=>p`
      <li key=${u.user} class="row">
        <span class="grow">${u.user}</span>
        <button type="button" class="danger" aria-label=${"Remove "+u.user+" from "+e+" "+ae(t)}
          onClick=${()=>a.run(async()=>(await E("DELETE","membership/"+g(u.user)+"/"+g(e),{query:{scope:t}}),s(c=>c+1),u.user+" is no longer a member of "+e+" "+ae(t)+"."))}>Remove</button>
      </li>`} />
  </div>`}function Vt(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||"",arg2:e[2]||""}}var $n=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function bn({onIn:e,reason:t,me:n}){let[o,s]=$(""),[r,a]=$(t),[i,u]=$(!1),c=async d=>{d.preventDefault(),u(!0),a("");try{await E("GET","roles",{query:{limit:1},key:o.trim()}),_t(o.trim()),e()}catch(_){a(_.message)}finally{u(!1)}};return p`<main class="signin" id="main">
    <h1>rolegate console</h1>
    ${n&&p`<p id="no-admin">You are signed in as <strong>${n.user}</strong>, who holds none of rolegate.admin, rolegate.read or rolegate.members. An admin key still works:</p>`}
    <form onSubmit=${c}>
      <${S} id="client-key" type="password" label="Client key" value=${o} onInput=${s} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). It stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${i}>Sign in</button>
    </form>
    <${q} text=${r} id="signin-error" />
  </main>`}function gn(){let[e,t]=$(!!Me()),[n,o]=$(void 0),[s,r]=$(""),[a,i]=$(Vt()),u=Y();N(()=>{let h=()=>{i(Vt()),Dt()};return addEventListener("hashchange",h),$t(y=>{Le(),r(y),t(!1),o(null)}),()=>removeEventListener("hashchange",h)},[]),N(()=>{e||n!==void 0||ft().then(h=>{o(h)})},[e,n]),N(()=>{u.current&&u.current.focus()},[a.page,a.arg,e,n]);let c=!e&&n,d=e||c&&(n.admin||n.read);if(!e&&n===void 0)return p`<main id="main"><p aria-busy="true">Loading…</p></main>`;if(!e&&(!n||!d&&n.members.length===0))return p`<${bn} reason=${s} me=${n} onIn=${()=>{r(""),t(!0)}} />`;mt(e||n.admin);let _=c?p`<span class="who" id="signed-in-as">Signed in as <strong>${n.user}</strong>${n.admin?"":n.read?" (read only)":""}</span>`:p`<span class="who" id="signed-in-as">Signed in with a client key</span>`,l=c?p`<button type="button" class="signout" onClick=${()=>{o(null),r("")}}>Use a client key</button>`:p`<button type="button" class="signout" onClick=${()=>{Le(),t(!1),o(void 0)}}>Sign out</button>`;if(!d)return document.title="Your members \xB7 rolegate console",p`
      <header>
        <span class="brand">rolegate</span>
        ${_}
        ${l}
      </header>
      <main id="main">
        <h1 tabindex="-1" ref=${u}>Members you manage</h1>
        <div class="page"><${Bt} me=${n} /></div>
      </main>
      <${je} />`;let m=h=>{location.hash=h},b,f;switch(a.page){case"role":b="Role "+a.arg,f=p`<${Lt} role=${a.arg} />`;break;case"members":b="Members",f=p`<${Ot} go=${m} />`;break;case"user":b=a.arg?"User "+a.arg:"Users",f=a.arg?p`<${qt} user=${a.arg} go=${m} />`:p`<${Ht} go=${m} />`;break;case"whocan":b=a.arg?"Who can "+a.arg:"Who can",f=p`<${jt} name=${a.arg} scope=${a.arg2} go=${m} />`;break;case"audit":b="Audit log",f=p`<${Gt} />`;break;default:b="Roles",f=p`<${Mt} />`}return document.title=b+" \xB7 rolegate console",p`
    <a class="skip" href="#main" onClick=${h=>{h.preventDefault(),u.current&&u.current.focus()}}>Skip to content</a>
    <header>
      <span class="brand">rolegate</span>
      <nav aria-label="Console">
        <ul>${$n.map(([h,y])=>p`<li><a href=${"#/"+h} aria-current=${a.page===h?"page":void 0}>${y}</a></li>`)}</ul>
      </nav>
      ${_}
      ${l}
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${u}>${b}</h1>
      <div key=${a.page+"/"+a.arg+"/"+a.arg2} class="page">${f}</div>
    </main>
    <${je} />`}Ae(p`<${gn} />`,document.getElementById("app"));
